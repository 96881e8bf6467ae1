import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOTS } from './stack';

/**
 * The accessibility audit (issue 23): axe-core run in the page against WCAG 2.0/2.1 A and AA. A
 * violation of impact serious or critical fails the test that took the picture; every finding, of
 * any impact, is appended to `test-artifacts/screenshots/axe-findings.jsonl` so the before and after
 * of a change can be compared.
 *
 * axe is evaluated through the DevTools protocol, which the page's CSP (`script-src 'self'`) does
 * not govern, so the app's CSP stays as shipped.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const FINDINGS = join(SCREENSHOTS, 'axe-findings.jsonl');

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
  summary: string;
}

export async function axeFindings(page: Page, only?: string[]): Promise<AxeFinding[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (rules) => {
    // biome-ignore lint/suspicious/noExplicitAny: axe's global, injected above
    const axe = (window as any).axe;
    const r = await axe.run(document, {
      runOnly: rules
        ? { type: 'rule', values: rules }
        : { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    // biome-ignore lint/suspicious/noExplicitAny: axe's result objects
    return r.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      // biome-ignore lint/suspicious/noExplicitAny: axe's node objects
      targets: v.nodes.slice(0, 5).map((n: any) => n.target.join(' ')),
      summary: String(v.nodes[0]?.failureSummary ?? '').slice(0, 300),
    }));
  }, only ?? null);
}

/** Runs axe on the page as it is; throws, naming each rule and element, on a serious or critical one. */
export async function audit(page: Page, label: string, only?: string[]): Promise<AxeFinding[]> {
  const found = await axeFindings(page, only);
  for (const f of found) appendFileSync(FINDINGS, `${JSON.stringify({ label, ...f })}\n`);
  const grave = found.filter((f) => f.impact === 'serious' || f.impact === 'critical');
  if (grave.length > 0)
    throw new Error(
      `${label}: axe found ${grave.length} serious or critical WCAG 2.1 AA violation(s):\n${grave
        .map((f) => `- ${f.id} (${f.impact}): ${f.help}\n  ${f.targets.join('\n  ')}\n  ${f.summary}`)
        .join('\n')}`,
    );
  return found;
}
