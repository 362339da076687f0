// The register's compaction snapshot in columns (electron/core/sites/snapshot.ts): what a compaction
// writes reads back as exactly the sites it had; a damaged chunk is set aside and reported like a
// damaged record; a register written one record per site (format 1) is read, then rewritten in
// chunks (format 2) at its next compaction, which an older Sitewalk refuses rather than misreads;
// and a crash at any moment of a compaction leaves a register that opens with every site.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../electron/core/clock';
import { REGISTER_FILE, REGISTER_FORMAT_VERSION, SiteRegister, type SiteRecord } from '../../electron/core/sites/register';
import { encodeRecord, Journal, JournalFormatError } from '../../electron/core/storage/journal';
import { CHUNK_SITES } from '../../electron/core/sites/snapshot';

const CHILD = fileURLToPath(new URL('./register-compact-child.ts', import.meta.url));
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sitewalk-snapshot-'));
  dirs.push(dir);
  return dir;
}

const NAMES = ['Tower', 'Mât 北京 📡', 'Line\nbreak "quoted" \\ back', '', '\u0000\u001f control', 'Ünïcödé'];

/** Sites of every kind: each optional field present or not, siteId null or not, lost and drafts, several profiles. */
function varied(count: number): SiteRecord[] {
  return Array.from({ length: count }, (_, k): SiteRecord => {
    const site: SiteRecord = {
      localId: k % 7 === 0 ? `local-é${k}` : `local-${k}`,
      profileId: `p${k % 3}`,
      siteId: k % 5 === 0 ? null : String(1000 + k),
      origin: (['created', 'existing', 'imported'] as const)[k % 3]!,
      known: {},
      appliedSeq: k % 4 === 0 ? 0 : k * 3,
      createdAt: 1_700_000_000_000 + (k % 10),
      updatedAt: k % 11 === 0 ? -1.5 : 1_700_000_000_000 + k,
    };
    if (k % 2 === 0) site.known.name = `${NAMES[k % NAMES.length]} ${k}`;
    if (k % 3 !== 1) site.known.height = k % 9 === 0 ? 0 : 10.25 + k;
    if (k % 4 !== 3) {
      site.known.latitude = -89.5 + (k % 179);
      site.known.longitude = 179.999999 - (k % 359);
    }
    if (k % 6 === 0) site.known.description = k % 12 === 0 ? '' : `Described ${NAMES[k % NAMES.length]}`;
    if (k % 5 !== 2) site.known.group = `Town ${k % 25}`;
    if (k % 8 !== 0) site.known.pinStyle = ((k % 4) + 1) as 1 | 2 | 3 | 4;
    if (k % 13 === 0) site.lost = `Lost ${NAMES[k % NAMES.length]}`;
    if (k % 10 === 0) site.draft = k % 20 === 0 ? {} : { name: `Draft ${k}`, height: 30, pinStyle: 2 };
    return site;
  });
}

async function lines(dataDir: string): Promise<string[]> {
  return (await readFile(path.join(dataDir, REGISTER_FILE), 'utf8')).split('\n').filter((line) => line !== '');
}

const json = (line: string) => JSON.parse(line.slice(9)) as Record<string, unknown>;

describe('the register snapshot in columns', () => {
  it('reads back exactly the sites it wrote: every field, unicode, absent optional fields, siteId null, lost and drafts', async () => {
    const dataDir = await tempDir();
    const clock = createManualClock();
    const sites = varied(2500);
    const { register } = await SiteRegister.open({ dataDir, clock });
    await register.put(sites);
    await register.compact();
    await register.close();

    const written = await lines(dataDir);
    expect(json(written[0]!)).toEqual({ journal: 'sitewalk-sites', version: REGISTER_FORMAT_VERSION });
    // CHUNK_SITES sites per chunk, the rest in the last.
    expect(written.slice(1).map((line) => [json(line).t, json(line).n])).toEqual([
      ...Array.from({ length: Math.floor(2500 / CHUNK_SITES) }, () => ['sites', CHUNK_SITES]),
      ...(2500 % CHUNK_SITES === 0 ? [] : [['sites', 2500 % CHUNK_SITES]]),
    ]);

    const { register: again, problems } = await SiteRegister.open({ dataDir, clock });
    expect(problems).toEqual([]);
    // Same sites, same order, no key more or less (toStrictEqual: an absent field stays absent).
    expect(again.list()).toStrictEqual(sites);
    expect(again.findBySiteId('p1', '1001')?.localId).toBe('local-1');
    expect(again.list('p2')).toHaveLength(833);
    await again.close();
  });

  it('reads back what a put would for records held in memory with undefined fields, and writes a site a chunk cannot hold on its own', async () => {
    const dataDir = await tempDir();
    const clock = createManualClock();
    const base = varied(30);
    const loose = { ...base[1]!, draft: undefined, known: { ...base[1]!.known, group: undefined } } as SiteRecord;
    // A bug's record: a height no schema accepts. Today's reader sets it aside; it must not take its chunk with it.
    const broken = { ...base[2]!, known: { height: Number.NaN } } as SiteRecord;
    const sites = [base[0]!, loose, broken, ...base.slice(3)];
    const { register } = await SiteRegister.open({ dataDir, clock });
    await register.put(sites);
    await register.compact();
    await register.close();

    expect((await lines(dataDir)).slice(1).map((line) => json(line).t)).toEqual(['sites', 'put', 'sites']);
    const { register: again, problems } = await SiteRegister.open({ dataDir, clock });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ kind: 'invalid-record', index: 1 });
    const { draft: _draft, ...withoutDraft } = loose;
    const { group: _group, ...knownWithoutGroup } = loose.known;
    expect(again.list()).toStrictEqual([base[0]!, { ...withoutDraft, known: knownWithoutGroup }, ...base.slice(3)]);
    await again.close();
  });

  it('keeps ordinary writes after a compaction one record per change', async () => {
    const dataDir = await tempDir();
    const clock = createManualClock();
    const sites = varied(1500);
    const { register } = await SiteRegister.open({ dataDir, clock });
    await register.put(sites);
    await register.compact();
    const edited = { ...sites[1200]!, known: { name: 'Edited' }, updatedAt: 5 };
    await register.put([edited]);
    await register.remove([sites[3]!.localId]);
    await register.close();

    const written = await lines(dataDir);
    expect(written.slice(-2).map((line) => json(line).t)).toEqual(['put', 'del']);
    const { register: again } = await SiteRegister.open({ dataDir, clock });
    expect(again.size).toBe(1499);
    expect(again.get(sites[1200]!.localId)).toStrictEqual(edited);
    expect(again.get(sites[3]!.localId)).toBeUndefined();
    // A re-put keeps the site's first place.
    expect(again.list()[1199]!.localId).toBe(sites[1200]!.localId);
    await again.close();
  });

  it('sets aside a damaged chunk, reports it like a damaged record, and keeps the chunks around it', async () => {
    const dataDir = await tempDir();
    const clock = createManualClock();
    const sites = varied(3000);
    const { register } = await SiteRegister.open({ dataDir, clock });
    await register.put(sites);
    await register.compact();
    await register.close();

    // Bytes of the second chunk flipped on disk: its checksum no longer matches.
    const file = path.join(dataDir, REGISTER_FILE);
    const text = await readFile(file, 'utf8');
    const written = text.split('\n');
    written[2] = written[2]!.replace(`"local-${CHUNK_SITES + 2}"`, '"local-XXX"');
    await writeFile(file, written.join('\n'));

    const { register: again, problems } = await SiteRegister.open({ dataDir, clock });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ kind: 'corrupt-record', line: 3 });
    expect(again.size).toBe(3000 - CHUNK_SITES);
    expect(again.list()).toStrictEqual([...sites.slice(0, CHUNK_SITES), ...sites.slice(2 * CHUNK_SITES)]);
    const quarantined = await readFile(`${file}.corrupt`, 'utf8');
    expect(Buffer.from(quarantined.split('\n')[1]!, 'base64').toString('utf8')).toContain('local-XXX');
    await again.close();
    // The open compacted the damage away: the next one finds nothing.
    const { register: third, problems: none } = await SiteRegister.open({ dataDir, clock });
    expect(none).toEqual([]);
    expect(third.size).toBe(3000 - CHUNK_SITES);
    await third.close();
  });

  it.each([
    ['a column one site short', (chunk: Record<string, unknown>) => (chunk.appliedSeq as number[]).pop(), 'appliedSeq'],
    ['an empty local ID', (chunk: Record<string, unknown>) => ((chunk.localId as string[])[5] = ''), 'localId'],
    ['a text index past its texts', (chunk: Record<string, unknown>) => ((chunk.origin as { i: number[] }).i[7] = 9), 'origin'],
    ['a pin style no version has', (chunk: Record<string, unknown>) => (((chunk.known as Record<string, number[]>).pinStyle!)[1] = 7), 'known.pinStyle'],
    ['a draft with a field no version has', (chunk: Record<string, unknown>) => ((chunk.draft as Array<[number, object]>)[0]![1] = { colour: 'red' }), 'draft'],
    ['a key no version writes', (chunk: Record<string, unknown>) => (chunk.extra = []), 'extra'],
    ['a null where a site needs a value', (chunk: Record<string, unknown>) => ((chunk.createdAt as Array<number | null>)[0] = null), 'createdAt'],
  ])('sets aside a chunk with a good checksum but %s, naming what is wrong', async (_what, spoil, where) => {
    const dataDir = await tempDir();
    const clock = createManualClock();
    const sites = varied(2200);
    const { register } = await SiteRegister.open({ dataDir, clock });
    await register.put(sites);
    await register.compact();
    await register.close();

    const file = path.join(dataDir, REGISTER_FILE);
    const written = await lines(dataDir);
    const chunk = json(written[1]!);
    spoil(chunk);
    written[1] = encodeRecord(chunk).trimEnd();
    await writeFile(file, `${written.join('\n')}\n`);

    const { register: again, problems } = await SiteRegister.open({ dataDir, clock });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ kind: 'invalid-record', index: 0 });
    expect((problems[0] as { message: string }).message).toContain(`(${where}`);
    expect(again.list()).toStrictEqual(sites.slice(CHUNK_SITES));
    expect(await readFile(`${file}.corrupt`, 'utf8')).toContain('"t":"sites"');
    await again.close();
  });

  it('reads a register written one record per site, keeps appending to it so, and rewrites it in chunks at its next compaction', async () => {
    const dataDir = await tempDir();
    const clock = createManualClock();
    const file = path.join(dataDir, REGISTER_FILE);
    const sites = varied(1200);
    // What an earlier Sitewalk wrote: format 1, a put per site, a removal.
    const { journal } = await Journal.open(file, 'sitewalk-sites');
    await journal.append(sites.map((site) => ({ t: 'put', site })));
    await journal.append([{ t: 'del', localId: sites[0]!.localId }]);
    await journal.close();

    const { register, problems } = await SiteRegister.open({ dataDir, clock });
    expect(problems).toEqual([]);
    expect(register.list()).toStrictEqual(sites.slice(1));
    await register.put([{ ...sites[0]!, updatedAt: 9 }]);
    expect(json((await lines(dataDir))[0]!)).toEqual({ journal: 'sitewalk-sites', version: 1 });
    expect((await lines(dataDir)).slice(1).every((line) => json(line).t !== 'sites')).toBe(true);
    await register.compact();
    await register.close();

    const written = await lines(dataDir);
    expect(json(written[0]!)).toEqual({ journal: 'sitewalk-sites', version: REGISTER_FORMAT_VERSION });
    expect(written.slice(1).map((line) => json(line).t)).toEqual(Array.from({ length: Math.ceil(1200 / CHUNK_SITES) }, () => 'sites'));
    const { register: again, problems: none } = await SiteRegister.open({ dataDir, clock });
    expect(none).toEqual([]);
    expect(again.list()).toStrictEqual([...sites.slice(1), { ...sites[0]!, updatedAt: 9 }]);
    await again.close();
  });

  it('is refused whole by a Sitewalk that knows only format 1, which changes nothing in the file', async () => {
    const dataDir = await tempDir();
    const { register } = await SiteRegister.open({ dataDir, clock: createManualClock() });
    await register.put(varied(50));
    await register.compact();
    await register.close();
    const file = path.join(dataDir, REGISTER_FILE);
    const before = await readFile(file);

    // An older Sitewalk opens its journals with the default version, 1.
    const older = Journal.open(file, 'sitewalk-sites', { onRecord: () => undefined });
    await expect(older).rejects.toBeInstanceOf(JournalFormatError);
    await expect(older).rejects.toThrow(/newer Sitewalk \(format 2\)/);
    expect(await readFile(file)).toEqual(before);
    await expect(stat(`${file}.corrupt`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('opens with the old file when a compaction was cut short before its rename', async () => {
    const dataDir = await tempDir();
    const clock = createManualClock();
    const sites = varied(1500);
    const { register } = await SiteRegister.open({ dataDir, clock });
    await register.put(sites);
    await register.close();
    const file = path.join(dataDir, REGISTER_FILE);
    // A crash mid-compaction: the temporary file holds the header and half a chunk.
    const header = encodeRecord({ journal: 'sitewalk-sites', version: REGISTER_FORMAT_VERSION });
    await writeFile(`${file}.compact`, `${header}0badc0de {"t":"sites","n":1000,"localId":["local-0",`);

    const { register: again, problems } = await SiteRegister.open({ dataDir, clock });
    expect(problems).toEqual([]);
    expect(again.list()).toStrictEqual(sites);
    await again.close();
    await expect(stat(`${file}.compact`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('opens with every site after the process is killed at random moments of a compaction', async () => {
    const dataDir = await tempDir();
    const clock = createManualClock();
    const sites = varied(20_000);
    {
      // Written in the old form, so the first compaction also migrates it.
      const { journal } = await Journal.open(path.join(dataDir, REGISTER_FILE), 'sitewalk-sites');
      await journal.append(sites.map((site) => ({ t: 'put', site })));
      await journal.close();
    }
    const compactions: number[] = [];
    for (const killAfterMs of [0, 20, 60, 150, 400, 900, 1600]) {
      compactions.push(await compactUntilKilled(dataDir, killAfterMs));
      const { register, problems } = await SiteRegister.open({ dataDir, clock });
      expect(problems).toEqual([]);
      expect(register.list()).toStrictEqual(sites);
      await register.close();
    }
    // Kills landed both before the first compaction finished and after some had.
    expect(compactions.some((count) => count > 0)).toBe(true);
  }, 120_000);
});

/** Runs the child on `dataDir`, kills it `killAfterMs` after it is ready; resolves with the compactions it finished. */
function compactUntilKilled(dataDir: string, killAfterMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let done = 0;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line === 'ready') setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      else if (line.startsWith('compacted ')) done = Number(line.slice(10));
    });
    child.on('error', reject);
    child.on('close', () => resolve(done));
  });
}
