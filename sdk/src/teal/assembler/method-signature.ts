/**
 * A light ARC-4 method signature check for `method "…"`: the reference only warns when a signature
 * does not parse, so this decides warnings, never bytes.
 */
import { parseAbiType } from '../../abi/parse-type.js';

const NON_VALUE_TYPES = new Set(['txn', 'pay', 'keyreg', 'acfg', 'axfer', 'afrz', 'appl', 'account', 'asset', 'application']);

function splitTop(inner: string): string[] | undefined {
  if (inner === '') return [];
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth < 0) return undefined;
    } else if (c === ',' && depth === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) return undefined;
  parts.push(inner.slice(start));
  return parts;
}

function typeOk(t: string): boolean {
  if (NON_VALUE_TYPES.has(t)) return true;
  try {
    parseAbiType(t);
    return true;
  } catch {
    return false;
  }
}

const cache = new Map<string, string | undefined>();

/** Why `sig` is not a valid `name(args)return` signature, or undefined. */
export function checkMethodSignature(sig: string): string | undefined {
  if (cache.has(sig)) return cache.get(sig);
  const problem = check(sig);
  if (cache.size < 4096) cache.set(sig, problem);
  return problem;
}

function check(sig: string): string | undefined {
  const open = sig.indexOf('(');
  if (open === -1) return `no parenthesis in method signature: ${JSON.stringify(sig)}`;
  if (open === 0) return `method signature has no name: ${JSON.stringify(sig)}`;
  let depth = 0;
  let close = -1;
  for (let i = open; i < sig.length; i++) {
    if (sig[i] === '(') depth++;
    else if (sig[i] === ')') {
      depth--;
      if (depth === 0) {
        close = i;
        break;
      }
    }
  }
  if (close === -1) return `unpaired parenthesis in method signature: ${JSON.stringify(sig)}`;
  const args = splitTop(sig.slice(open + 1, close));
  if (!args) return `unpaired parenthesis in method signature: ${JSON.stringify(sig)}`;
  for (const a of args) if (!typeOk(a)) return `invalid argument type ${JSON.stringify(a)}`;
  const ret = sig.slice(close + 1);
  if (ret !== 'void' && !typeOk(ret)) return `invalid return type ${JSON.stringify(ret)}`;
  return undefined;
}
