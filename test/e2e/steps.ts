// What a user does in the app, as steps the e2e tests share: connect an account from the welcome,
// find a site's row, add a site by its service ID, change a site's height. Each step waits until the
// screen shows it done. `step` names a part of a journey, so a failure says which part it was.
import type { Locator, Page } from 'playwright';
import { DEMO_ACCOUNT } from '../../electron/sandbox/index';

/** Text as a regular expression that matches it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A site's row in the list, optionally in a given state (its accessible name ends with the state's words). */
export function siteRow(page: Page, name: string, state?: string): Locator {
  return page.getByRole('button', { name: new RegExp(`^${escapeRegExp(name)}\\b${state ? `.*${escapeRegExp(state)}` : ''}`) }).first();
}

/** "Add by site ID" with the site's fields, until its row shows. */
export async function addById(page: Page, site: { id: string; name: string; height: number; latitude: number; longitude: number }): Promise<void> {
  await page.getByRole('button', { name: 'Add by site ID' }).first().click();
  const form = page.getByRole('region', { name: 'Add an existing site by its ID' });
  await form.getByLabel('Site ID').fill(site.id);
  await form.getByLabel('Name', { exact: true }).fill(site.name);
  await form.getByLabel('Height (meters)').fill(String(site.height));
  await form.getByLabel('Latitude').fill(String(site.latitude));
  await form.getByLabel('Longitude').fill(String(site.longitude));
  await form.getByRole('button', { name: 'Add site' }).click();
  await form.waitFor({ state: 'detached' });
  await siteRow(page, site.name).waitFor();
}

/** Edit the site's height and save, until the form closes. */
export async function editHeight(page: Page, name: string, height: number): Promise<void> {
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const form = page.getByRole('region', { name: `Edit ${name}` });
  await form.getByLabel('Height (meters)').fill(String(height));
  await form.getByRole('button', { name: 'Save site' }).click();
  await form.waitFor({ state: 'detached' });
}

/** Connects "my account" (a service of the test's own, with the demo account) from the welcome dialog, as profile "Field account". */
export async function connectAccount(page: Page, serviceUrl: string): Promise<void> {
  await page.getByRole('button', { name: /Connect my account/ }).click();
  const welcome = page.getByRole('dialog', { name: 'Connect your account' });
  await welcome.getByLabel('Profile name').fill('Field account');
  await welcome.getByLabel('Service address').fill(serviceUrl);
  await welcome.getByLabel('Account ID').fill(DEMO_ACCOUNT.account);
  await welcome.getByLabel(/API key/).fill(DEMO_ACCOUNT.key);
  await welcome.getByRole('button', { name: 'Save profile' }).click();
  await page.locator('dialog[open]').waitFor({ state: 'hidden' });
  await page.getByRole('button', { name: /^Profile: Field account/ }).waitFor();
}

/**
 * One step of a journey (a test that walks several things a user does, one after another, in one
 * app): a failure inside is named by its step, and the steps after it do not run.
 */
export async function step<T>(name: string, walk: () => Promise<T>): Promise<T> {
  try {
    return await walk();
  } catch (error) {
    if (error instanceof Error) error.message = `${name}: ${error.message}`;
    throw error;
  }
}
