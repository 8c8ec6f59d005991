import { describe, expect, it } from "vitest";
import { sampleQuestionsFor } from "../../src/features/repositories/sample-questions.ts";
import type { SampleCandidate } from "../../src/features/repositories/projection.ts";

describe("sample questions", () => {
  it("are not drawn from tests where .NET, Gradle and PHPUnit keep them", () => {
    const candidates: SampleCandidate[] = [
      { path: "Src/Acme.Json.Tests/Serialization/SerializerRoundTrip.cs", blobId: "b1", language: "csharp", symbols: [{ name: "SerializerRoundTrip", kind: "class", label: "class", lines: 900 }] },
      { path: "lib/src/jvmTest/kotlin/acme/BufferReadsTest.kt", blobId: "b2", language: "kotlin", symbols: [{ name: "BufferReadsTest", kind: "class", label: "class", lines: 700 }] },
      { path: "src/Handler/CurlFactoryTest.php", blobId: "b3", language: "php", symbols: [{ name: "CurlFactoryTest", kind: "class", label: "class", lines: 600 }] },
      { path: "Src/Acme.Json/JsonTextReader.cs", blobId: "b4", language: "csharp", symbols: [{ name: "JsonTextReader", kind: "class", label: "class", lines: 120 }] },
    ];
    const files = new Map(candidates.map((c) => [c.path, c.blobId]));
    const questions = sampleQuestionsFor(candidates, files, 1);
    expect(questions).toEqual(["How does the `JsonTextReader` class work?"]);
    // The tests still come after it when more questions are asked for (penalised, not removed).
    expect(sampleQuestionsFor(candidates, files, 4)).toHaveLength(4);
  });
});
