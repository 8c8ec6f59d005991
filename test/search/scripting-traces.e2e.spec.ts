import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

/**
 * A Ruby backtrace pasted as the whole report: its frames name the file, the line and the method at
 * fault, and the search answers with that file first (e2e, through POST /v2/search). Two other files hold
 * the same words (`email`, `normalize`), so the words alone do not choose.
 */
const USER = [
  "class User", // 1
  "  attr_reader :email, :name",
  "",
  "  def initialize(email:, name:)", // 4
  "    @email = email",
  "    @name = name",
  "  end", // 7
  "",
  "  def display_name", // 9
  "    name.to_s.strip.empty? ? email : name",
  "  end", // 11
  "",
  "  def normalized_email", // 13
  "    email.strip.downcase",
  "  end", // 15
  "end",
  "",
].join("\n");

const MAILER = [
  "class Mailer",
  "  def normalize(address)",
  "    address.to_s.strip.downcase",
  "  end",
  "",
  "  def deliver(email, body)",
  "    queue.push(to: normalize(email), body: body)",
  "  end",
  "end",
  "",
].join("\n");

const SIGNUP = [
  "class Signup",
  "  def call(params)",
  "    user = User.new(email: params[:email], name: params[:name])",
  "    Mailer.new.deliver(user.normalized_email, 'welcome')",
  "    user",
  "  end",
  "end",
  "",
].join("\n");

const TRACE = [
  "app/models/user.rb:14:in 'User#normalized_email': undefined method 'strip' for nil (NoMethodError)",
  "\tfrom app/services/signup.rb:4:in 'Signup#call'",
  "\tfrom /usr/lib/ruby/3.3.0/forwardable.rb:238:in 'each'",
].join("\n");

describe("a Ruby backtrace leads to the file at fault (e2e)", () => {
  const { search } = withIndexedRepository("acme/accounts", {
    "app/models/user.rb": USER,
    "app/mailers/mailer.rb": MAILER,
    "app/services/signup.rb": SIGNUP,
    "lib/email_format.rb": "module EmailFormat\n  def self.normalize(email)\n    email.to_s.strip.downcase\n  end\nend\n",
  });

  it("the innermost project frame's file comes first, its reference holding the line the frame names", async () => {
    const results = await search(TRACE);
    expect(results[0]?.filepath).toBe("app/models/user.rb");
    // A short class is one chunk (its methods with it): the reference is the class, holding line 14.
    expect(results[0]!.linestart!).toBeLessThanOrEqual(14);
    expect(results[0]!.lineend!).toBeGreaterThanOrEqual(14);
    expect(results.map((r) => r.filepath)).toContain("app/services/signup.rb");
  });
});
