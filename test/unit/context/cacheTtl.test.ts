import assert from 'node:assert/strict';
import { AUTO_CACHE_TTL, resolveCacheTtl } from '../../../src/core/context/cacheTtl';

describe('quiver.cache.ttl resolved for a request', () => {
  it('auto is the TTL the bench found cheaper for a human-paced chat, one hour; a written TTL is sent as written', () => {
    assert.equal(AUTO_CACHE_TTL, '1h');
    assert.equal(resolveCacheTtl('auto'), '1h');
    assert.equal(resolveCacheTtl('5m'), '5m');
    assert.equal(resolveCacheTtl('1h'), '1h');
  });
});
