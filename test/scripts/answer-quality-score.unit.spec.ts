import { describe, expect, it } from "vitest";
import { median, scoreAnswer } from "../../scripts/answer-quality/score.ts";

const expected = [{ path: "src/app/sessions.py", name: "get_signing_serializer", linestart: 303, lineend: 321 }];

describe("answer-quality scoring", () => {
  it("counts a definition named with overlapping lines in its own file", () => {
    const answer = "The key signs cookies in `src/app/sessions.py`:\n- `SecureCookieSessionInterface.get_signing_serializer` (lines 303–321) builds the serializer.";
    expect(scoreAnswer(answer, expected, ["src/app/sessions.py"]).named).toBe(true);
    expect(scoreAnswer("`src/app/sessions.py:300-305` get_signing_serializer", expected, []).named).toBe(true);
  });

  it("does not count the name without lines, with lines that miss it, or under another file", () => {
    expect(scoreAnswer("`src/app/sessions.py` get_signing_serializer", expected, []).named).toBe(false);
    expect(scoreAnswer("`src/app/sessions.py` get_signing_serializer lines 10-20", expected, []).named).toBe(false);
    expect(scoreAnswer("`src/app/sessions.py`\n`src/app/other.py`: get_signing_serializer lines 303-321", expected, ["src/app/other.py"]).named).toBe(false);
    expect(scoreAnswer("`src/app/sessions.py` get_signing_serializer_v2 (lines 303-321)", expected, []).named).toBe(false);
  });

  it("ignores what code blocks contain and measures the prose before the first one", () => {
    const answer = "Look here `src/app/sessions.py`:\n```python\ndef get_signing_serializer(self):  # 303-321\n```\n";
    const s = scoreAnswer(answer, expected, []);
    expect(s.named).toBe(false);
    expect(s.proseChars).toBe(answer.indexOf("```"));
    expect(s.totalChars).toBe(answer.length);
  });

  it("takes medians", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(median([])).toBe(0);
  });
});
