/**
 * Signing in to the console in a browser test, through its sign-in form.
 */
import type { Page } from "playwright-core";

/**
 * Signs in at `baseUrl`'s sign-in form with `key`. Resolves once the browser has left the form: by
 * default at the repositories page (where a sign-in without `next` lands), at a URL `arrival` matches,
 * or, with "navigation", when the navigation the form's submission starts is done.
 */
export async function signInConsole(page: Page, baseUrl: string, key: string, arrival: "navigation" | Parameters<Page["waitForURL"]>[0] = /\/console\/repositories$/): Promise<void> {
  await page.goto(`${baseUrl}/console/sign-in`);
  await page.getByLabel("API key").fill(key);
  if (arrival === "navigation") {
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Sign in" }).click()]);
    return;
  }
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(arrival);
}
