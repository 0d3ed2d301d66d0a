// Types of scripts/webview-build.mjs, for the TypeScript that imports it (the render tests).
import type { BuildOptions } from 'esbuild';

/** One webview script: its TypeScript entry and the file the panel loads (repository-relative). */
export interface WebviewScript {
  entry: string;
  outfile: string;
}

/** The simulate panel's webview scripts, in the order the page loads them. */
export declare const WEBVIEW_SCRIPTS: WebviewScript[];

/** esbuild options that bundle one webview script (a browser IIFE). */
export declare function webviewBuildOptions(root: string, script: WebviewScript, options?: { production?: boolean }): BuildOptions;
