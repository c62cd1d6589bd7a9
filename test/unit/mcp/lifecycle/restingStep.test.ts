import assert from 'node:assert/strict';
import type { RestingServers } from '../../../../src/mcp/config';
import { restingStep } from '../../../../src/mcp/lifecycle';

const sets = (off: string[], idle: string[]): RestingServers => ({ off: new Set(off), idle: new Set(idle) });
const none = sets([], []);

describe('restingStep', () => {
  it('joining the off set rests the server, whatever its state', () => {
    assert.equal(restingStep('a', 'running', none, sets(['a'], [])), 'rest');
    assert.equal(restingStep('a', 'off', none, sets(['a'], [])), 'rest');
  });

  it('leaving the off set wakes a server that is off, even when it would be idle now', () => {
    assert.equal(restingStep('a', 'off', sets(['a'], []), sets([], ['a'])), 'wake');
    assert.equal(restingStep('a', 'running', sets(['a'], []), none), 'stay', 'one started on demand is already up');
  });

  it('leaving the idle set starts an idle server; joining it leaves a running one up', () => {
    assert.equal(restingStep('a', 'idle', sets([], ['a']), none), 'start');
    assert.equal(restingStep('a', 'running', none, sets([], ['a'])), 'stay');
    assert.equal(restingStep('a', 'idle', sets([], ['a']), sets([], ['a'])), 'stay');
  });

  it('staying in the off set changes nothing', () => {
    assert.equal(restingStep('a', 'off', sets(['a'], []), sets(['a'], [])), 'stay');
  });
});
