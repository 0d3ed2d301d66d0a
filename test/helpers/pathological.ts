// Pathological TEAL programs for the bounded-input suites, generated rather than stored.

/** `levels` macros, each using the previous one twice: 2^levels statements if fully expanded (a few hundred bytes of source). */
export function exponentialMacros(levels = 32): string {
  const lines = ['#pragma version 10', '#define m0 int 1; pop'];
  for (let i = 1; i <= levels; i++) lines.push(`#define m${i} m${i - 1} m${i - 1}`);
  lines.push(`m${levels}`, 'int 1');
  return lines.join('\n') + '\n';
}

/** One macro of `statements` statements used `uses` times (the 32 KB file at 2,000 × 2,000). */
export function wideMacro(statements = 2000, uses = 2000): string {
  const body = Array.from({ length: statements }, () => 'int 1; pop').join('; ');
  const lines = ['#pragma version 10', `#define w ${body}`];
  for (let i = 0; i < uses; i++) lines.push('w');
  lines.push('int 1');
  return lines.join('\n') + '\n';
}

/**
 * A chain of `count` macros, each the next one's only use, defined in reverse order (the last
 * macro first); using the head expands `count` levels deep.
 */
export function longChain(count = 10_000): string {
  const lines = ['#pragma version 10', `#define c${count} int 1`];
  for (let i = count - 1; i >= 0; i--) lines.push(`#define c${i} c${i + 1}`);
  lines.push('c0', 'return');
  return lines.join('\n') + '\n';
}

/** A chain defined in forward order (each macro names one defined later), `count` long. */
export function forwardChain(count = 50_000): string {
  const lines = ['#pragma version 10'];
  for (let i = 0; i < count; i++) lines.push(`#define f${i} f${i + 1}`);
  lines.push(`#define f${count} int 1`, 'f0', 'return');
  return lines.join('\n') + '\n';
}

/** Many labels (code lens / symbol cost grows with them). */
export function manyLabels(count = 50_000): string {
  const lines = ['#pragma version 10', 'b l0'];
  for (let i = 0; i < count; i++) lines.push(`l${i}:`, i + 1 < count ? `b l${i + 1}` : 'int 1');
  lines.push('return');
  return lines.join('\n') + '\n';
}
