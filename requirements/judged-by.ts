import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogue } from './catalogue';

/**
 * Where each requirement is judged: the `unless('ORD-…'` calls under checks/, each with the named check
 * it stands in. checks/README.md carries the index this builds; `npx tsx requirements/judged-by.ts --write`
 * writes it anew, and selftest/catalogue.test.ts fails when it is out of date.
 */

const CHECKS = join(__dirname, '..', 'checks');
export const CHECKS_README = join(CHECKS, 'README.md');

/** A literal requirement id bound by unless(): the one way checks/ judges. */
export const JUDGED_ID = /\bunless\(\s*'(ORD-[A-Z]+-\d{3})'/g;

const INDEX_START = '<!-- index: written by `npx tsx requirements/judged-by.ts --write`; do not edit by hand -->';
const INDEX_END = '<!-- end of index -->';

export interface Judgement {
  id: string;
  /** The file under checks/, as checks/orders.ts. */
  file: string;
  /** The checks that judge it: the function the unless() stands in or, for a private binder, the exported checks that call it. */
  checks: string[];
}

interface Declaration {
  name: string;
  exported: boolean;
  /** The code of the declaration, from its first line to the next top-level one, comments left out. */
  text: string;
}

/** Top-level declarations (at the start of a line: function, const) of a file, each with its code. */
function declarationsOf(source: string): Declaration[] {
  const lines = source.split('\n').map((line) => (/^\s*(\/\*\*|\*|\/\/)/.test(line) ? '' : line));
  const starts = lines.flatMap((line, index) => {
    const match = /^(export )?(?:async )?(?:function|const) (\w+)/.exec(line);
    return match ? [{ index, name: match[2], exported: match[1] !== undefined }] : [];
  });
  return starts.map((start, i) => ({ name: start.name, exported: start.exported, text: lines.slice(start.index, starts[i + 1]?.index ?? lines.length).join('\n') }));
}

export function judgements(): Judgement[] {
  const found: Judgement[] = [];
  for (const name of readdirSync(CHECKS).filter((file) => file.endsWith('.ts')).sort()) {
    const declarations = declarationsOf(readFileSync(join(CHECKS, name), 'utf8'));
    for (const declaration of declarations) {
      // A private binder is named by the exported checks that call it; a private check run from a plan, by itself.
      const callers = declarations.filter((other) => other.exported && new RegExp(`\\b${declaration.name}\\(`).test(other.text)).map((other) => other.name);
      const checks = declaration.exported || callers.length === 0 ? [declaration.name] : callers;
      for (const [, id] of declaration.text.matchAll(JUDGED_ID)) {
        const entry = found.find((j) => j.id === id && j.file === `checks/${name}`);
        if (entry) entry.checks = [...new Set([...entry.checks, ...checks])];
        else found.push({ id, file: `checks/${name}`, checks });
      }
    }
  }
  const order = [...catalogue().keys()];
  return found.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id) || a.file.localeCompare(b.file));
}

/** The index as checks/README.md shows it: one row per requirement and file, in catalogue order. */
export function renderIndex(found: Judgement[] = judgements()): string {
  const rows = found.map((j) => `| ${j.id} | ${catalogue().get(j.id)?.level ?? '?'} | ${j.file} | ${j.checks.map((name) => `\`${name}\``).join(', ')} |`);
  return [INDEX_START, '', '| requirement | level | file | checks |', '| --- | --- | --- | --- |', ...rows, '', INDEX_END].join('\n');
}

/** checks/README.md with the index written anew between its markers. */
export function readmeWithIndex(readme = readFileSync(CHECKS_README, 'utf8')): string {
  const start = readme.indexOf(INDEX_START);
  const end = readme.indexOf(INDEX_END);
  if (start === -1 || end === -1) throw new Error(`${CHECKS_README}: the index markers are missing`);
  return `${readme.slice(0, start)}${renderIndex()}${readme.slice(end + INDEX_END.length)}`;
}

if (require.main === module && process.argv.includes('--write')) writeFileSync(CHECKS_README, readmeWithIndex());
