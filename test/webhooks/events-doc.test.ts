import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { WEBHOOK_EVENTS } from '../../src/services/webhooks';
import { call, json } from '../helpers/harness';
import { compiler, type Doc } from '../helpers/openapi';
import { useHarness } from '../helpers/use-harness';

// The OpenAPI document's `webhooks`: one POST per event importd sends, whose body schema (compiled by ajv, strict)
// accepts the payloads the server really writes to its outbox, and the review routes beside them.

describe('webhook events and review routes in /v1/openapi.json', () => {
  const { h, env } = useHarness({ config: { IMPORTD_WEBHOOK_ALLOW_PRIVATE: 'true' } });
  let doc: Doc;

  before(async () => {
    doc = await json<Doc>(await call(h, 'GET', '/v1/openapi.json'));
  });

  it('documents the approve and reject routes: Secret Key, optional reason, the detail, 404 and 409', () => {
    for (const verb of ['approve', 'reject']) {
      const operation = doc.paths[`/v1/imports/{importId}/${verb}`]?.post;
      assert.ok(operation, verb);
      assert.equal(operation.operationId, `${verb}Import`);
      assert.deepEqual(operation.security, [{ secretKey: [] }]);
      assert.equal(operation.requestBody.required, false);
      assert.equal(operation.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/ImportDetail');
      for (const status of ['400', '401', '403', '404', '409']) assert.ok(operation.responses[status], `${verb} ${status}`);
    }
    const detail = doc.components.schemas.ImportDetail as any;
    assert.deepEqual(detail.properties.status.enum, ['completed', 'pending_review', 'rejected']);
    assert.ok(detail.required.includes('reviewedAt') && detail.required.includes('reviewReason'));
    assert.deepEqual((doc.components.schemas.Import as any).properties.status.enum, ['completed', 'pending_review', 'rejected']);
    const status = doc.paths['/v1/imports']!.get.parameters.find((p: any) => p.name === 'status');
    assert.deepEqual(status.schema.enum, ['completed', 'pending_review', 'rejected']);
  });

  it('documents every event, and each body schema accepts what the server sends', async () => {
    assert.deepEqual(Object.keys(doc.webhooks ?? {}).sort(), [...WEBHOOK_EVENTS].sort());
    assert.equal((await call(h, 'POST', '/v1/webhooks', { key: env.secretKey, body: { url: 'https://127.0.0.1/hook' } })).status, 201);
    // One of each event, through the API.
    await call(h, 'POST', '/v1/templates', { key: env.secretKey, body: { schema: { key: 'reviewed', review: 'required', columns: ['name'] } } });
    const post = async (schemaKey: string) => json(await call(h, 'POST', '/v1/imports', { key: env.secretKey, body: { meta: { schemaKey }, rows: [{ name: 'Ada' }] } }));
    const plain = await post('plain');
    assert.equal((await call(h, 'POST', `/v1/imports/${(await post('reviewed')).id}/approve`, { key: env.secretKey, body: { reason: 'ok' } })).status, 200);
    assert.equal((await call(h, 'POST', `/v1/imports/${(await post('reviewed')).id}/reject`, { key: env.secretKey })).status, 200);
    assert.equal((await call(h, 'DELETE', `/v1/imports/${plain.id}`, { key: env.secretKey })).status, 200);
    await post('erased');
    const session = await json(await call(h, 'POST', '/v1/sessions', { key: env.secretKey, body: { endUserId: 'gone' } }));
    assert.ok(session.sessionToken);
    assert.equal((await call(h, 'DELETE', '/v1/end-users/gone', { key: env.secretKey })).status, 200);
    const events = await h.sql<{ type: string; payload: string }>('SELECT type, payload FROM webhook_events');
    const { compile } = compiler(doc);
    const seen = new Set<string>();
    for (const event of events) {
      const operation = doc.webhooks![event.type]!.post;
      assert.equal(operation.requestBody.required, true);
      const validate = compile(operation.requestBody.content['application/json'].schema);
      const body = JSON.parse(event.payload) as Record<string, unknown>;
      assert.ok(validate(body), `${event.type}: ${JSON.stringify(validate.errors)}`);
      // The documented body is exact in its type: another event's body does not pass for this one.
      assert.equal(validate({ ...body, type: 'import.other' }), false);
      seen.add(event.type);
    }
    assert.deepEqual([...seen].sort(), [...WEBHOOK_EVENTS].sort(), 'every event was sent once at least');
  });
});
