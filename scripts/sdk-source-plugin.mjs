// esbuild plugin: bundles `@tealworks/sdk` and its subpaths from the SDK's TypeScript sources (as
// the type checker's `paths` and tsx do), so the extension and server bundles never depend on a
// previously built sdk/dist.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

export const sdkSourcePlugin = {
  name: 'tealworks-sdk-source',
  setup(build) {
    build.onResolve({ filter: /^@tealworks\/sdk(\/[a-z]+)?$/ }, (args) => {
      const sub = args.path.slice('@tealworks/sdk'.length).replace(/^\//, '');
      const path = join(root, 'sdk/src', sub, 'index.ts');
      if (!existsSync(path)) return { errors: [{ text: `${args.path} is not an entry point of @tealworks/sdk` }] };
      return { path };
    });
  },
};
