import { describe, expect, it } from "vitest";
import { ANALYSERS, analyserContext } from "../../src/review/analysers/index.ts";
import { identifierWords, isSecretName, namedSecretLiteral } from "../../src/review/analysers/secret-names.ts";
import { filterByStrictness } from "../../src/review/strictness.ts";
import type { DiffFile } from "../../src/review/diff.ts";
import { added } from "./helpers.ts";

const secrets = (file: DiffFile) => ANALYSERS.secrets!(file, analyserContext(file));

describe("secrets named by their variable", () => {
  it("splits identifiers into words and matches whole words", () => {
    expect(identifierWords("SECRET_KEY")).toEqual(["secret", "key"]);
    expect(identifierWords("apiKey")).toEqual(["api", "key"]);
    expect(identifierWords("DBPassword")).toEqual(["db", "password"]);
    expect(identifierWords("x-api-key")).toEqual(["x", "api", "key"]);
    for (const name of ["SECRET_KEY", "password", "db_password", "apiKey", "API_KEY", "githubToken", "private_key", "AWS_ACCESS_KEY", "clientSecret", "passwd"]) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of ["tokenizer", "password_hint", "token_url", "SECRET_KEY_NAME", "passwordField", "keyboard", "monkey", "api_version", "TOKEN_TYPE", "secretary"]) {
      expect(isSecretName(name), name).toBe(false);
    }
  });

  it("finds the hard-coded SECRET_KEY the pattern detectors missed, and the other literal forms", () => {
    const f = added("app/settings.py", [
      'SECRET_KEY = "dev-secret-key"',
      'app.config["API_KEY"] = "k3y-for-prod"',
      'connect(host="db", password="hunter22")',
      'auth = {"token": "abc123def456"}',
      "DEBUG = True",
    ]);
    const found = secrets(f);
    expect(found.map((x) => [x.ruleId, x.lineStart, x.severity])).toEqual([
      ["secrets/named-literal", 1, "medium"],
      ["secrets/named-literal", 2, "medium"],
      ["secrets/named-literal", 3, "medium"],
      ["secrets/hardcoded-credential", 4, "high"], // random-looking: the older pattern rule has it
    ]);
    // The secret itself never appears in a message.
    expect(found.map((x) => x.message).join("\n")).not.toMatch(/dev-secret-key|hunter22|k3y-for-prod|abc123def456/);
    expect(found[0]!.message).toContain("SECRET_KEY");
  });

  it("works across languages (JavaScript, Go, YAML-like keys)", () => {
    expect(namedSecretLiteral('const apiKey = "q8Zr2LwX9";')).toEqual({ name: "apiKey", value: "q8Zr2LwX9" });
    expect(namedSecretLiteral('dbPassword := "pa55word!x"')).toEqual({ name: "dbPassword", value: "pa55word!x" });
    expect(namedSecretLiteral('  client_secret: "s3cr3t-v4lue"')).toEqual({ name: "client_secret", value: "s3cr3t-v4lue" });
    expect(namedSecretLiteral("let password: string = 'opensesame1';")).toEqual({ name: "password", value: "opensesame1" });
  });

  it("leaves placeholders, env lookups, comparisons, field names, prose and interpolation alone", () => {
    const lines = [
      'SECRET_KEY = os.environ.get("SECRET_KEY", "")',
      'SECRET_KEY = os.environ["SECRET_KEY"]',
      'password = os.getenv("DB_PASSWORD", "changeme")',
      'password = ""',
      'password = "changeme"',
      'api_key = "your-api-key"',
      'token = "<token>"',
      'token = "${TOKEN}"',
      "const secret = `${prefix}-${value}`;",
      'if password == "hunter22":',
      'TOKEN_HEADER = "X-Auth-Token"',
      'token_field = "access_token"',
      'TOKEN_KEY = "access_token"',
      'PASSWORD_ENV = "DB_PASSWORD"',
      'password_error = "The password is wrong"',
      'token_type = "Bearer"',
      'secret = "aaaaaaaa"',
      '# password = "hunter22"',
      'tokenizer = "wordpiece-v2"',
      'SECRET_KEY_FILE = "/run/secrets/key"',
    ];
    expect(secrets(added("app/settings.py", lines))).toEqual([]);
  });

  it("stays quiet in tests and documentation", () => {
    expect(secrets(added("tests/test_settings.py", ['SECRET_KEY = "dev-secret-key"']))).toEqual([]);
    expect(secrets(added("docs/setup.md", ['SECRET_KEY = "dev-secret-key"']))).toEqual([]);
  });

  it("respects strictness: a medium finding shows at 3, not at 2; a random-looking one is high", () => {
    const found = secrets(added("app/settings.py", ['SECRET_KEY = "dev-secret-key"', 'session_token = "Zq8!rT2#kLm9xV4"']));
    expect(found.map((f) => f.severity)).toEqual(["medium", "high"]);
    expect(filterByStrictness(found, 3)).toHaveLength(2);
    expect(filterByStrictness(found, 2).map((f) => f.lineStart)).toEqual([2]);
  });
});
