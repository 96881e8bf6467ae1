import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** The lowest major of Node a package's `engines.node` accepts ("^20.19.0 || >=22.12.0" accepts 20). */
function lowestMajor(range: string): number {
  // A part without a number ("*", "") accepts every Node.
  const majors = range.split('||').map((part) => Number(/(\d+)/.exec(part)?.[1] ?? 0));
  return Math.min(...majors);
}

/**
 * Issue 34: `npm install` on the Node the README states printed six engine warnings nobody explained.
 * The README says which Node the tooling wants, and names every installed package that wants more than
 * the project's own minimum (package.json `engines`): a new one is a failure here, not a surprise there.
 */
describe('the README says which Node the tooling wants', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { engines?: { node?: string } }>;
  };
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const setUp = readme.slice(readme.indexOf('## Set up'), readme.indexOf('## The command line'));
  const minimum = lowestMajor(pkg.engines.node);

  it('names each package whose engines want more than the project’s minimum, and that Node', () => {
    const wanting = Object.entries(lock.packages)
      .filter(([name, p]) => name !== '' && p.engines?.node && lowestMajor(p.engines.node) > minimum)
      .map(([name]) => name.slice(name.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(wanting.length).toBeGreaterThan(0);
    for (const name of wanting) expect(setUp, `README's set-up omits ${name}`).toContain(`\`${name}\``);
    expect(setUp).toMatch(/Node 22\.12 or later/);
    expect(setUp).toContain(`Node ${minimum}.`);
    expect(setUp).toMatch(
      new RegExp(`${wanting.length === 6 ? 'six' : wanting.length} \`EBADENGINE\` warnings`),
    );
  });
});
