// The mapping poisoning of issue 41 for npm run bench:attacks: end-users teach a template honest header pairs,
// then ONE end-user (one session) teaches it a swap of two columns and floods it with junk pairs. Reports what
// another end-user, the Secret Key and another environment of the account are offered afterwards, and how many
// of the honest end-users' entries the flood left, while another account's small read is timed (bench/attacks.ts).
import { runBin } from '../test/helpers/process';
import type { Attack, Attacker } from './fan-out-attacks';

const TEACHERS = 24;
const TAUGHT = 200;
const FLOODS = 11;
const JUNK = 500;
const PATH = '/v1/intelligence/map-headers';
type Answer = Record<string, { fileKey: string; confidence: number; source?: string }>;

async function call(a: Attacker, method: string, pathname: string, body: unknown, as: { key: string; session?: string }): Promise<Response> {
  const response = await fetch(`${a.url}${pathname}`, {
    method,
    headers: {
      Authorization: `Bearer ${as.key}`,
      'Content-Type': 'application/json',
      ...(as.session && { Origin: a.origin, 'X-Session-Token': as.session }),
    },
    body: JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
  return response;
}

/** A session of `endUserId` bound to the template, issued by the account's backend. */
async function sessionOf(a: Attacker, endUserId: string, templateId: string): Promise<string> {
  return ((await (await call(a, 'POST', '/v1/sessions', { endUserId, templateId }, { key: a.secretKey })).json()) as { sessionToken: string }).sessionToken;
}

/** An import through the Public Key and an end-user's session confirming `mapping`, as the importer posts it. */
async function confirm(a: Attacker, session: string, mapping: Record<string, string>): Promise<void> {
  await (await call(a, 'POST', '/v1/imports', { meta: { mapping }, rows: [{ Email: 'a@example.com', Phone: '+15550100' }] }, { key: a.publicKey, session })).arrayBuffer();
}

const pairs = (count: number, key: (i: number) => string, label: (i: number) => string) => Object.fromEntries(Array.from({ length: count }, (_, i) => [key(i), label(i)]));
const item = (key: string, label: string) => ({ key, label });
/** Two columns named exactly as the schema's, and one the matcher cannot place, which the attacker also teaches. */
const HEADERS = {
  schemaHeaders: [item('email', 'Email'), item('phone', 'Phone'), item('segment', 'Segment')],
  fileHeaders: [item('c0', 'Email'), item('c1', 'Phone'), item('c2', 'Bucket X7')],
};

/** Entries of the honest end-users (one per end-user and schema key) the template still holds. */
function taughtEntries(a: Attacker): number {
  const listed = JSON.parse(runBin(['mappings', 'list', '--template', 'contacts', '--account', 'attacked', '--json', '--db', a.db]).stdout) as { data: { schemaKey: string; endUsers: number }[] };
  return listed.data.filter((pair) => pair.schemaKey.startsWith('taught-')).reduce((sum, pair) => sum + pair.endUsers, 0);
}

export const MAPPING_ATTACKS: Attack[] = [
  {
    name: `mapping poisoning: 1 end-user's swap, then ${FLOODS} x ${JUNK} junk pairs`,
    prepare: async (a) => {
      const template = (await (await call(a, 'POST', '/v1/templates', { key: 'contacts', name: 'contacts', schema: { key: 'contacts' } }, { key: a.secretKey })).json()) as { id: string };
      for (let t = 0; t < TEACHERS; t++) await confirm(a, await sessionOf(a, `teacher-${t}`, template.id), pairs(TAUGHT, (i) => `taught-${i}`, (i) => `Taught column ${i}`));
      return template.id;
    },
    run: async (a, templateId) => {
      const eve = await sessionOf(a, 'eve', templateId);
      await confirm(a, eve, { email: 'Phone', phone: 'Email', segment: 'Bucket X7' });
      const callers = {
        'end-user': { key: a.publicKey, session: await sessionOf(a, 'bob', templateId) },
        'Secret Key': { key: a.secretKey },
        'other env': { key: a.otherEnvironmentKey },
      };
      const offered: string[] = [];
      for (const [who, as] of Object.entries(callers)) {
        const answer = (await (await call(a, 'POST', PATH, { ...HEADERS, templateId }, as)).json()) as Answer;
        const swapped = answer.email?.fileKey === 'c1' || answer.phone?.fileKey === 'c0';
        offered.push(`${who}: swap ${swapped ? 'OFFERED' : 'no'}, segment ${answer.segment ? answer.segment.confidence : '-'}`);
      }
      // Then the flood: past the template's cap, the end-user holding the most entries loses their oldest first.
      for (let f = 0; f < FLOODS; f++) await confirm(a, eve, pairs(JUNK, (i) => `junk-${f}-${i}`, (i) => `Junk ${f} ${i}`));
      return `${offered.join('; ')}; after the flood, taught entries kept ${taughtEntries(a)}/${TEACHERS * TAUGHT}`;
    },
  },
];
