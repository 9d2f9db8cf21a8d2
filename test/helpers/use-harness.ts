import { after, before } from 'node:test';
import { createHarness, createTestEnvironment, type Harness, type HarnessOptions, type TestEnvironment, type TestEnvironmentOptions } from './harness';
import { startLiveServer, type LiveServer } from './live-server';

export type SuiteHarness<N extends string> = { h: Harness; env: TestEnvironment } & Record<N, TestEnvironment>;
type SuiteOptions<N extends string> = HarnessOptions & { env?: TestEnvironmentOptions; environments?: Record<N, TestEnvironmentOptions> };

/**
 * The opening most suites share, as hooks of the suite (or file) it is called in: `before` opens a harness and
 * creates the default environment `env` (with the options `env`), then each of `environments` in the order given; `after` closes the
 * harness. The objects answered are filled in place by that hook, so read their members only in hooks and
 * tests; `before` hooks a describe registers after this call run once they are filled. Not so at a file's top
 * level, where Node 20 starts every `before` hook without waiting for the one before it: there, call this only in a
 * file with no other `before` hook.
 */
export function useHarness<const N extends string = never>(options: SuiteOptions<N> = {}): SuiteHarness<N> {
  return openSuite(options, false);
}

/** useHarness, with the app also served on a real socket (`server`), closed before the harness. */
export function useLiveHarness<const N extends string = never>(options: SuiteOptions<N> = {}): SuiteHarness<N> & { server: LiveServer } {
  return openSuite(options, true) as SuiteHarness<N> & { server: LiveServer };
}

function openSuite<N extends string>(options: SuiteOptions<N>, live: boolean): SuiteHarness<N> & { server?: LiveServer } {
  const { env, environments = {} as Record<N, TestEnvironmentOptions>, ...harnessOptions } = options;
  const names = Object.keys(environments) as N[];
  const members = ['h', 'env', ...names, ...(live ? ['server'] : [])];
  const suite = Object.fromEntries(members.map((name) => [name, {}])) as SuiteHarness<N> & { server?: LiveServer };
  let opened: Harness | undefined;
  let server: LiveServer | undefined;
  before(async () => {
    opened = await createHarness(harnessOptions);
    fillIn(suite.h, opened);
    fillIn(suite.env, await createTestEnvironment(opened, env));
    for (const name of names) fillIn(suite[name], await createTestEnvironment(opened, environments[name]));
    if (live) fillIn(suite.server!, (server = await startLiveServer(opened)));
  });
  // Nothing to close that never opened (the set-up's own failure is the one reported); the server before the database it serves.
  after(async () => {
    await server?.close();
    await opened?.close();
  });
  return suite;
}

/** Copies the members as they are: the harness's `storage` is a getter that throws on PostgreSQL when read. */
function fillIn(target: object, source: object): void {
  Object.defineProperties(target, Object.getOwnPropertyDescriptors(source));
}
