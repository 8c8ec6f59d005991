import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

/**
 * A report describes what goes wrong with an invoice's total, in words that two functions of one file
 * share: a five-line formatter that only prints the total, and the longer function that computes it.
 * The formatter's few lines hold the words more densely; the computation holds more of the code a fix
 * may land in, and leads the file's references. A question (not a report) keeps the words' order.
 */
const INVOICE = [
  '"""Invoices: totals, discounts and their display."""', // 1
  "",
  "",
  "def format_total(invoice):", // 4
  '    """The total of an invoice shown in its currency, rounded for display."""',
  "    currency = invoice.currency or 'EUR'",
  "    total = round(invoice.total, 2)",
  "    return f\"{currency} {total}\"", // 8
  "",
  "",
  "def invoice_number(invoice):",
  "    return f\"INV-{invoice.id:06d}\"",
  "",
  "",
  "def compute_total(invoice):", // 15
  "    subtotal = 0",
  "    for line in invoice.lines:",
  "        price = line.unit_price * line.quantity",
  "        if line.tax_rate:",
  "            price += price * line.tax_rate",
  "        subtotal += price",
  "    if invoice.discount_percent:",
  "        subtotal -= subtotal * invoice.discount_percent / 100",
  "    if invoice.discount_amount:",
  "        subtotal -= invoice.discount_amount",
  "    if subtotal < 0:",
  "        subtotal = 0",
  "    shipping = invoice.shipping or 0",
  "    if invoice.free_shipping_over and subtotal >= invoice.free_shipping_over:",
  "        shipping = 0",
  "    invoice.total = round(subtotal + shipping, 2)",
  "    invoice.currency = invoice.currency or 'EUR'",
  "    return invoice.total",
  "", // 34
].join("\n");

const REPORT = `Invoice total shown in the wrong currency, rounded twice

The total of an invoice is shown rounded in its currency, but with a discount the total shown is one
cent higher than the sum of its lines, and an invoice without a currency shows no currency at all. I
expected the total of the invoice to be rounded once and shown in the invoice's currency. The total
shown and the total stored on the invoice differ, after the discount percent of the subtotal (the subtotal of its lines is right).
`;

describe("within a file, a report's longer definition weighs its length (e2e)", () => {
  const { search: searchAll } = withIndexedRepository("acme/billing", {
    "billing/invoice.py": INVOICE,
    "billing/other.py": "def other():\n    return 1\n",
  });

  it("the function that computes the total leads, the five-line formatter follows", async () => {
    const refs = (await searchAll(REPORT)).filter((s) => s.filepath === "billing/invoice.py");
    expect(refs.length).toBeGreaterThan(1);
    expect(refs[0]!.linestart).toBe(15);
    expect(refs[0]!.lineend).toBe(33);
    expect(refs.slice(1).some((r) => r.linestart === 4)).toBe(true);
  });

  it("a question is not weighed by length: the formatter its words describe leads", async () => {
    const refs = (await searchAll("Where is the invoice total shown rounded in its currency?")).filter((s) => s.filepath === "billing/invoice.py");
    expect(refs[0]!.linestart).toBe(4);
  });
});
