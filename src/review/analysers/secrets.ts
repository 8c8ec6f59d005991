/**
 * Credentials added to the code. Messages never contain the secret: only its first characters
 * and its length (maskSecret). Placeholder values ("EXAMPLE", "changeme", "${VAR}", ...) are skipped.
 */
import type { Finding } from "../findings.ts";
import { forEachAddedLine, lineFinding, splitCode, type Analyser } from "./context.ts";
import { namedSecretLiteral } from "./secret-names.ts";

export function maskSecret(secret: string): string {
  const shown = secret.length >= 16 ? 4 : secret.length >= 8 ? 2 : 0;
  return `${secret.slice(0, shown)}${"*".repeat(Math.min(8, secret.length - shown))} (${secret.length} characters)`;
}

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

const PLACEHOLDER = /example|sample|dummy|placeholder|changeme|change_me|your[_-]?|xxxx|\*\*\*|redacted|<[^>]*>|\$\{|\{\{|%\(|^\$[A-Z_]+$|fake|test|todo|secret$|password$/i;

type TokenRule = { id: string; what: string; re: RegExp; severity: "critical" | "high"; group?: number };

const TOKEN_RULES: TokenRule[] = [
  { id: "secrets/aws-access-key-id", what: "AWS access key id", re: /\b((?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16})\b/, severity: "critical" },
  {
    id: "secrets/aws-secret-access-key",
    what: "AWS secret access key",
    re: /aws_?secret_?access_?key["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/i,
    severity: "critical",
  },
  { id: "secrets/github-token", what: "GitHub token", re: /\b((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255})\b/, severity: "critical" },
  { id: "secrets/github-token", what: "GitHub fine-grained token", re: /\b(github_pat_[A-Za-z0-9_]{22,255})\b/, severity: "critical" },
  { id: "secrets/gitlab-token", what: "GitLab token", re: /\b(gl(?:pat|dt|ptt|rt)-[A-Za-z0-9_-]{20,255})/, severity: "critical" },
  { id: "secrets/slack-token", what: "Slack token", re: /\b(xox[abpors]-[A-Za-z0-9-]{10,255})/, severity: "critical" },
  {
    id: "secrets/slack-webhook",
    what: "Slack webhook URL",
    re: /(https:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]{6,20}\/B[A-Z0-9]{6,20}\/[A-Za-z0-9]{16,40})/,
    severity: "high",
  },
  { id: "secrets/stripe-key", what: "Stripe live secret key", re: /\b((?:sk|rk)_live_[A-Za-z0-9]{20,255})\b/, severity: "critical" },
  { id: "secrets/google-api-key", what: "Google API key", re: /\b(AIza[0-9A-Za-z_-]{35})(?![0-9A-Za-z_-])/, severity: "high" },
];

const PRIVATE_KEY = /-----BEGIN ((?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?)-----/;

const SECRET_KEY_NAME = /(pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth|credential)s?$/i;
const NOT_A_SECRET_NAME = /(name|label|field|type|prompt|hint|url|uri|path|file|placeholder|length|len|min|max|id|header|param|key_?name|env|var|policy|regex|pattern|count|expires?(_?at|_?in)?)$/i;
const ASSIGNMENT = /(["']?)([A-Za-z_][A-Za-z0-9_.-]{0,60})\1\s*(?::=|=>|=|:)\s*(["'`])([^"'`\s]{8,200})\3/g;

function classes(s: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((r) => r.test(s)).length;
}

/** Generic `password = "..."`-style assignments with a literal that looks random enough. */
function genericSecret(text: string): { key: string; value: string } | null {
  ASSIGNMENT.lastIndex = 0;
  for (let m = ASSIGNMENT.exec(text); m; m = ASSIGNMENT.exec(text)) {
    const key = m[2]!;
    const value = m[4]!;
    const leaf = key.slice(Math.max(key.lastIndexOf("."), key.lastIndexOf("-")) + 1);
    if (!SECRET_KEY_NAME.test(leaf) || NOT_A_SECRET_NAME.test(leaf)) continue;
    if (PLACEHOLDER.test(value)) continue;
    if (value.length < 8 || entropy(value) < 3 || classes(value) < 2) continue;
    return { key, value };
  }
  return null;
}

export const secretsAnalyser: Analyser = (file, ctx) => {
  if (ctx.skip) return [];
  const findings: Finding[] = [];
  forEachAddedLine(file, (line, text) => {
    const pk = PRIVATE_KEY.exec(text);
    if (pk) {
      findings.push(
        lineFinding(ctx, "secrets/private-key", "critical", line, `A ${pk[1]} block is being committed. Remove it from the repository, revoke the key, and load it from a secret store at runtime.`),
      );
      return;
    }
    for (const rule of TOKEN_RULES) {
      const m = rule.re.exec(text);
      if (!m) continue;
      const secret = m[1]!;
      if (/EXAMPLE|X{8,}|0{8,}/.test(secret)) continue;
      findings.push(
        lineFinding(
          ctx,
          rule.id,
          rule.severity,
          line,
          `Hard-coded ${rule.what} (\`${maskSecret(secret)}\`). Remove it, revoke/rotate it, and read it from the environment or a secret manager instead.`,
        ),
      );
      return;
    }
    if (ctx.isTest) return;
    const g = genericSecret(text);
    if (g) {
      findings.push(
        lineFinding(
          ctx,
          "secrets/hardcoded-credential",
          "high",
          line,
          `\`${g.key}\` is assigned a hard-coded credential (\`${maskSecret(g.value)}\`). Read it from configuration or a secret manager, and rotate it if it was real.`,
        ),
      );
      return;
    }
    if (ctx.language === "markdown") return;
    const { comment } = splitCode(text, ctx.language);
    const named = namedSecretLiteral(comment >= 0 ? text.slice(0, comment) : text);
    if (named) {
      const random = named.value.length >= 12 && entropy(named.value) >= 3.3 && classes(named.value) >= 3;
      findings.push(
        lineFinding(
          ctx,
          "secrets/named-literal",
          random ? "high" : "medium",
          line,
          `\`${named.name}\` names a secret but is given a literal (\`${maskSecret(named.value)}\`): anyone who reads the repository has it. Read it from the environment or a secret manager, and rotate it if it was ever used.`,
        ),
      );
    }
  });
  return findings;
};
