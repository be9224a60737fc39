/**
 * Every link in README.md and docs/ resolves: a relative link names a file or folder of the repository,
 * and an anchor (`#privacy`, `docs/runbook.md#dead-letter-queues`) names a heading of its page, slugged as
 * GitHub renders it. Links to other sites are not fetched (no network in tests); their form is checked.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/api-function';

/** README.md and every Markdown page under docs/. */
function pages(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : name.endsWith('.md') ? [path] : [];
    });
  return [join(REPO_ROOT, 'README.md'), ...walk(join(REPO_ROOT, 'docs'))];
}

/** Markdown without its fenced code blocks and inline code: a `[x](y)` there is code, not a link. */
const prose = (text: string) => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

const links = (markdown: string) => [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);

describe('the links of README.md and docs/', () => {
  it('finds pages and links to check', () => {
    expect(pages().length).toBeGreaterThan(1);
    expect(links(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).length).toBeGreaterThan(5);
  });

  it.each(pages().map((page) => [relative(REPO_ROOT, page), page]))('%s links only to what exists', (_name, page) => {
    const broken: string[] = [];
    for (const link of links(readFileSync(page, 'utf8'))) {
      if (/^(https?:|mailto:)/.test(link)) {
        if (!/^(https:\/\/|mailto:)[^\s<>]+$/.test(link)) broken.push(`${link} (not an https link)`);
        continue;
      }
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path === '' ? page : join(dirname(page), decodeURIComponent(path));
      if (!existsSync(target)) {
        broken.push(`${link} (no such file)`);
        continue;
      }
      if (anchor !== undefined && statSync(target).isFile() && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(anchor)) {
        broken.push(`${link} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
