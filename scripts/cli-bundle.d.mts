// Types of scripts/cli-bundle.mjs, for the TypeScript that imports it (the localnet benchmark).
import type { BuildOptions } from 'esbuild';

/** esbuild options of the shipped CLI bundle (add entryPoints `{ cli: … }` and an outdir). */
export declare const CLI_BUNDLE_OPTIONS: BuildOptions;
