/**
 * String literals assigned to names that mean a secret (`SECRET_KEY = "dev-secret-key"`,
 * `password="hunter22"`, `app.config["API_KEY"] = "..."`, `{"token": "..."}`), whatever the value
 * looks like: the name says it is a credential. Names are split into words (snake_case, camelCase,
 * kebab-case, dotted paths) and matched as whole words, so `tokenizer` or `password_hint` are not
 * secrets. Values that are placeholders, interpolations, environment variable names or field names
 * (`"access_token"`) are not literals of a secret. Used by the secrets analyser (./secrets.ts)
 * beside its token patterns.
 */

/** Words of an identifier: `SECRET_KEY` -> secret, key; `apiKey` -> api, key; `db.password` -> db, password. */
export function identifierWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
}

const SECRET_WORDS = new Set(["secret", "secrets", "password", "passwords", "passwd", "passphrase", "pwd", "token", "tokens", "credential", "credentials", "apikey", "privatekey"]);
const SECRET_PAIRS = new Set(["api key", "private key", "access key", "signing key", "encryption key", "master key", "auth key"]);
/** A name ending in one of these words is about a secret, not one: `password_hint`, `token_url`, `SECRET_KEY_NAME`. */
const NOT_A_SECRET = new Set(
  (
    "name names label field fields type types prompt hint url uri urls path paths file files placeholder length len min max id ids header headers " +
    "param params env var vars policy regex pattern count expires expiry expiration ttl timeout endpoint format prefix suffix message msg error errors " +
    "column col attr attribute input class mode kind dir validator validation required reset strength rule rules enabled method style selector route " +
    "template icon title text help description desc key_name location source provider store storage manager service backend cls schema version size " +
    "hash hashed digest salt confirm confirmation match matches changed change set flag option options limit loader getter setter handler factory"
  ).split(" "),
);

export function isSecretName(name: string): boolean {
  const words = identifierWords(name);
  if (words.length === 0 || NOT_A_SECRET.has(words[words.length - 1]!)) return false;
  if (words.some((w) => SECRET_WORDS.has(w))) return true;
  for (let i = 0; i + 1 < words.length; i++) if (SECRET_PAIRS.has(`${words[i]} ${words[i + 1]}`)) return true;
  return false;
}

const PLACEHOLDER =
  /example|sample|dummy|placeholder|change[_-]?me|changeit|replace[_-]?me|your[_-]|xxxx|\*\*\*|redacted|<[^>]*>|\$\{|\{\{|\{[A-Za-z_]*\}|%\(|%s|^\$[A-Z_]+$|fake|^test|^none$|^null$|^undefined$|^true$|^false$|^todo/i;

/** Why a literal is not a secret value, or null when it is one. */
export function notASecretValue(value: string): string | null {
  const v = value.trim();
  if (v.length < 6) return "too short";
  if (/\s/.test(v)) return "prose";
  if (new Set(v).size < 4) return "placeholder";
  if (PLACEHOLDER.test(v)) return "placeholder";
  if (/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(v)) return "an environment variable name";
  if (/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(v) && identifierWords(v).some((w) => SECRET_WORDS.has(w) || w === "key")) return "a field name";
  if (/^(https?:|\/|\.\/|\.\.\/)/.test(v) || /\.(txt|json|pem|key|crt|ya?ml|env|cfg|ini)$/i.test(v)) return "a path";
  if (/^(bearer|basic|token|jwt|oauth2?|hmac|sha\d+|hs\d{3}|rs\d{3}|utf-?8)$/i.test(v)) return "a scheme name";
  return null;
}

// name = "literal" / name := "literal" / name: "literal" / "name" => "literal" / name="literal" (kwargs), with
// an optional type annotation (`password: str = "..."`); the literal must end the expression.
// The literal's characters: an escape pair, a character other than the quote, a backslash or a line break, or a
// lone backslash just before the closing quote (with `.` also taking a backslash, each `\\` could be read two
// ways, and an unclosed literal of 30 of them backtracked for minutes).
const ASSIGN =
  /(?:^|[\s,({;])(["']?)([A-Za-z_$][\w$.-]{0,80})\1(?:\s*:\s*[A-Za-z_][\w.[\]|<> ]{0,40}?)?\s*(?::=|=>|(?<![=!<>])=(?!=)|:)\s*(?:[rRbBuU]{1,2})?(["'`])((?:\\.|(?!\3)[^\\\n\r\u2028\u2029]|\\(?=\3)){1,300})\3\s*(?=$|[,;)}\]]|#|\/\/)/g;
// config["NAME"] = "literal"
const SUBSCRIPT = /\[\s*(["'])([\w.-]{1,80})\1\s*\]\s*=(?!=)\s*(["'])((?:\\.|(?!\3)[^\\\n\r\u2028\u2029]|\\(?=\3)){1,300})\3\s*(?=$|[,;)}\]]|#|\/\/)/g;

export type NamedSecret = { name: string; value: string };

/** The first literal assigned to a secret's name on this line of code, or null. */
export function namedSecretLiteral(line: string): NamedSecret | null {
  for (const re of [SUBSCRIPT, ASSIGN]) {
    re.lastIndex = 0;
    for (let m = re.exec(line); m; m = re.exec(line)) {
      const name = m[2]!;
      const value = m[4]!;
      if (!isSecretName(name.slice(name.lastIndexOf(".") + 1))) continue;
      if (m[3] === "`" && value.includes("${")) continue;
      if (notASecretValue(value) !== null) continue;
      return { name, value };
    }
  }
  return null;
}
