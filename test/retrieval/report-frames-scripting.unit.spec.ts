/**
 * Ruby, .NET and PHP in reports: their backtraces name the project's files, lines and methods like the
 * seven languages' do (report-frames.unit.spec.ts); before, a Ruby error line gave not even its path.
 */
import { describe, expect, it } from "vitest";
import { analyzeQuery } from "../../src/retrieval/query-analysis.ts";
import { firstMatch, has, rows, weight, wellFormed } from "./report-frames-support.ts";

describe("Ruby, .NET and PHP backtraces", () => {
  it("Ruby: the error line, `from` lines of both quoting styles, gems and the standard library apart", () => {
    const a = analyzeQuery(
      [
        "Saving a user without an email crashes",
        "",
        "```",
        "app/models/user.rb:42:in 'User#normalized_email': undefined method 'downcase' for nil (NoMethodError)",
        "\tfrom app/services/signup.rb:17:in `block (2 levels) in call'",
        "\tfrom /usr/lib/ruby/3.2.0/forwardable.rb:238:in `each'",
        "\tfrom /home/dev/.gem/ruby/3.2.0/gems/activerecord-7.1.2/lib/active_record/transactions.rb:313:in `transaction'",
        "\tfrom bin/signup:5:in '<main>'",
        "```",
      ].join("\n"),
    );
    wellFormed(a);
    expect(rows(a)).toEqual([
      ["app/models/user.rb", 42, "User.normalized_email", "project"],
      ["app/services/signup.rb", 17, "call", "project"],
      ["/usr/lib/ruby/3.2.0/forwardable.rb", 238, "each", "runtime"],
      ["/home/dev/.gem/ruby/3.2.0/gems/activerecord-7.1.2/lib/active_record/transactions.rb", 313, "transaction", "library"],
    ]);
    expect(a.language).toBe("ruby");
    expect(a.frames.every((f) => f.language === "ruby")).toBe(true);
    expect(weight(a, "app/models/user.rb", "path")).toBeGreaterThan(weight(a, "/usr/lib/ruby/3.2.0/forwardable.rb", "path"));
    expect(a.symbols).toEqual(expect.arrayContaining(["normalized_email", "User", "call"]));
    expect(firstMatch(a, ["lib/user.rb", "app/models/user.rb"])).toBe("app/models/user.rb");
    // RSpec prints its frames after `# `.
    expect(rows(analyzeQuery("Failure/Error: expect(user.name).to eq('Ada')\n# ./app/models/user.rb:12:in 'User#name'\n# ./spec/models/user_spec.rb:8:in 'block (2 levels) in <top (required)>'"))).toEqual([
      ["app/models/user.rb", 12, "User.name", "project"],
      ["spec/models/user_spec.rb", 8, null, "project"],
    ]);
  });

  it(".NET: frames with and without files, async state machines and lambdas, the framework apart", () => {
    const a = analyzeQuery(
      [
        "Unhandled exception. System.NullReferenceException: Object reference not set to an instance of an object.",
        "   at Acme.Billing.InvoiceParser.ParseHeader(String line) in C:\\src\\Acme\\Billing\\InvoiceParser.cs:line 42",
        "   at Acme.Billing.InvoiceService.<LoadAsync>d__5.MoveNext() in /home/dev/acme/src/Billing/InvoiceService.cs:line 88",
        "   at System.Runtime.CompilerServices.TaskAwaiter.ThrowForNonSuccess(Task task)",
        "   at Acme.Program.<>c.<Main>b__0_0(Int32 n)",
        "   at Acme.Program.Main(String[] args) in C:\\src\\Acme\\Program.cs:line 9",
      ].join("\n"),
    );
    wellFormed(a);
    expect(rows(a)).toEqual([
      ["C:/src/Acme/Billing/InvoiceParser.cs", 42, "InvoiceParser.ParseHeader", "project"],
      ["/home/dev/acme/src/Billing/InvoiceService.cs", 88, "InvoiceService.LoadAsync", "project"],
      [null, null, "TaskAwaiter.ThrowForNonSuccess", "runtime"],
      [null, null, "Program.Main", "project"],
      ["C:/src/Acme/Program.cs", 9, "Program.Main", "project"],
    ]);
    expect(a.frames.every((f) => f.language === "csharp")).toBe(true);
    expect(a.symbols).toEqual(expect.arrayContaining(["ParseHeader", "InvoiceParser", "LoadAsync"]));
    // `Main` is the entry point: it says nothing about where the fault is.
    expect(has(a, "Main")).toBe(false);
    expect(firstMatch(a, ["Tests/InvoiceParserTests.cs", "Billing/InvoiceParser.cs"])).toBe("Billing/InvoiceParser.cs");
    // A JVM frame stays the JVM's.
    expect(analyzeQuery("\tat com.acme.Parser.parse(Parser.java:12)").frames[0]).toMatchObject({ language: "java", symbol: "Parser.parse" });
  });

  it("PHP: the uncaught error's location, a stack trace's frames (vendor code apart) and warnings' `on line`", () => {
    const a = analyzeQuery(
      [
        "PHP Fatal error:  Uncaught TypeError: App\\Billing\\Parser::header(): Argument #1 ($line) must be of type string, null given, called in /var/www/app/src/Billing/Invoice.php on line 31 and defined in /var/www/app/src/Billing/Parser.php:42",
        "Stack trace:",
        "#0 /var/www/app/src/Billing/Invoice.php(31): App\\Billing\\Parser->header(NULL)",
        "#1 /var/www/app/vendor/laravel/framework/src/Illuminate/Pipeline/Pipeline.php(180): App\\Billing\\Invoice->load()",
        "#2 /var/www/app/public/index.php(9): total()",
        "#3 {main}",
        "  thrown in /var/www/app/src/Billing/Parser.php on line 42",
      ].join("\n"),
    );
    wellFormed(a);
    expect(rows(a)).toEqual([
      ["/var/www/app/src/Billing/Invoice.php", 31, null, "project"],
      ["/var/www/app/src/Billing/Invoice.php", 31, "Parser.header", "project"],
      ["/var/www/app/vendor/laravel/framework/src/Illuminate/Pipeline/Pipeline.php", 180, "Invoice.load", "library"],
      ["/var/www/app/public/index.php", 9, "total", "project"],
      ["/var/www/app/src/Billing/Parser.php", 42, null, "project"],
    ]);
    expect(a.frames.every((f) => f.language === "php")).toBe(true);
    expect(a.symbols).toEqual(expect.arrayContaining(["header", "Parser", "load"]));
    expect(rows(analyzeQuery("PHP Warning:  Undefined variable $total in /var/www/app/src/Cart.php on line 12"))).toEqual([["/var/www/app/src/Cart.php", 12, null, "project"]]);
  });
});
