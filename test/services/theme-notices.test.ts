import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ThemeEvents } from '../../src/services/themes/theme-events';
import type { Theme } from '../../src/services/themes';
import { validTheme } from '../helpers/fixtures';
import { sharedChannel } from '../helpers/notices';

describe('theme streams across nodes (change notices)', () => {
  it("a notice published on one node wakes another node's streams at once; a reconnect re-reads what may have been missed", async () => {
    const stored = new Map<string, Theme>([['acct', validTheme({ name: 'First' }) as Theme]]);
    const read = async (accountId: string) => stored.get(accountId);
    const channel = sharedChannel();
    // Node A's themeChanged() publishes on the channel; node B has the open stream.
    const nodeB = new ThemeEvents(read, channel);
    const stream = await nodeB.subscribe('acct', 'key-1');
    assert.equal(stream.take()?.name, 'First');
    assert.equal(channel.subscribers(), 1);

    stored.set('acct', validTheme({ name: 'Second' }) as Theme);
    await channel.publish('theme', 'acct');
    assert.equal(await stream.wait(60_000), 'changed');
    assert.equal(stream.take()?.name, 'Second');

    // A change whose notice was lost (the channel was down) is found by the re-read on reconnect.
    stored.set('acct', validTheme({ name: 'Third' }) as Theme);
    channel.reconnect();
    assert.equal(await stream.wait(60_000), 'changed');
    assert.equal(stream.take()?.name, 'Third');

    stream.close();
    nodeB.closeAll();
    await new Promise(setImmediate);
    assert.equal(channel.subscribers(), 0, 'a node that shuts down stops listening');
  });
});
