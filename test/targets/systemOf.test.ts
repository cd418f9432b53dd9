import { describe, expect, it } from 'vitest';
import { systemOf } from '../../src/targets/process/open.ts';

describe('systemOf: the server under test as its serverInfo names it', () => {
  it('an empty or missing version is "?" (mcp 2.3.0 MCPServer says version "") / a version given is kept', () => {
    expect(systemOf({ name: 'correct', version: '' })).toEqual({ system: { name: 'correct', version: '?' } });
    expect(systemOf({ name: 'correct' })).toEqual({ system: { name: 'correct', version: '?' } });
    expect(systemOf({ name: 'correct', version: '1.2.0' })).toEqual({ system: { name: 'correct', version: '1.2.0' } });
  });
});
