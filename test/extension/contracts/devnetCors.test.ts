import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { corsSetting } from '../../../extension/src/contracts/devnetCors.js';
import { parseDevnetArgs } from '../../../sdk/src/cli/commands/devnet.js';

describe('extension: the tealworks.devnet.cors setting', () => {
  it('keeps browser origins (as --cors accepts them) and reports the rest', () => {
    const ignored: string[] = [];
    const out = corsSetting(
      ['http://localhost:5173', 'https://lora.algokit.io/', ' * ', 'localhost:3000', 'http://a.b/path', 42, 'http://localhost:5173'],
      (e) => ignored.push(e),
    );
    assert.deepEqual(out, ['http://localhost:5173', 'https://lora.algokit.io', '*']);
    assert.deepEqual(ignored, ['localhost:3000', 'http://a.b/path', '42']);
    // Every origin the setting keeps, the CLI's --cors accepts too.
    assert.deepEqual(
      parseDevnetArgs(
        out.flatMap((o) => ['--cors', o]),
        '/tmp',
      ).options.corsOrigins,
      out,
    );
    assert.deepEqual(
      corsSetting(undefined, () => assert.fail()),
      [],
    );
    assert.deepEqual(
      corsSetting('http://x.y', (e) => ignored.push(e)),
      [],
    );
  });

  it('is contributed, documented, and restricted in untrusted workspaces', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      contributes: {
        configuration:
          | { properties: Record<string, { type: string; default: unknown; markdownDescription?: string }> }
          | { properties: Record<string, { type: string; default: unknown; markdownDescription?: string }> }[];
      };
      capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
    };
    const conf = pkg.contributes.configuration;
    const props = Array.isArray(conf) ? Object.assign({}, ...conf.map((c) => c.properties)) : conf.properties;
    const s = props['tealworks.devnet.cors'];
    assert.equal(s.type, 'array');
    assert.deepEqual(s.default, []);
    assert.match(s.markdownDescription ?? '', /--cors ORIGIN/);
    assert.ok(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('tealworks.devnet.cors'));
  });
});
