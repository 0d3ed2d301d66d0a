// A small single-line TextMate interpreter over JS regexes, enough to check the TEAL grammar's
// scopes where vscode-textmate (Oniguruma) is not installed. It follows the TextMate rules that
// matter here: earliest match wins, ties go to the earlier pattern, begin/end rules scan their
// inner patterns until `end` matches, and captures get their own scopes.

interface Rule {
  include?: string;
  match?: string;
  begin?: string;
  end?: string;
  name?: string;
  captures?: Record<string, { name?: string }>;
  beginCaptures?: Record<string, { name?: string }>;
  endCaptures?: Record<string, { name?: string }>;
  patterns?: Rule[];
}

export interface Grammar {
  scopeName: string;
  patterns: Rule[];
  repository: Record<string, Rule>;
}

export interface ScopedToken {
  text: string;
  scopes: string[];
}

export class MiniTokenizer {
  private readonly cache = new Map<string, RegExp>();

  constructor(private readonly grammar: Grammar) {}

  private re(source: string): RegExp {
    let r = this.cache.get(source);
    if (!r) this.cache.set(source, (r = new RegExp(source, 'gd')));
    return r;
  }

  /** Expands includes into the concrete match/begin rules they stand for, in order. */
  private flatten(rules: readonly Rule[], seen = new Set<string>()): Rule[] {
    const out: Rule[] = [];
    for (const r of rules) {
      if (r.include) {
        const key = r.include.slice(1);
        if (seen.has(key)) continue;
        const target = this.grammar.repository[key];
        if (!target) throw new Error(`unresolved include ${r.include}`);
        out.push(...this.flatten(target.match || target.begin ? [target] : (target.patterns ?? []), new Set([...seen, key])));
      } else if (r.match || r.begin) out.push(r);
      else if (r.patterns) out.push(...this.flatten(r.patterns, seen));
    }
    return out;
  }

  private exec(source: string, line: string, at: number): RegExpExecArray | null {
    const re = this.re(source);
    re.lastIndex = at;
    return re.exec(line);
  }

  tokenizeLine(line: string): ScopedToken[] {
    const marks: { start: number; end: number; scope: string }[] = [];
    const capture = (m: RegExpExecArray, caps: Rule['captures']) => {
      for (const [k, v] of Object.entries(caps ?? {})) {
        const span = m.indices?.[Number(k)];
        if (span && v.name && span[1] > span[0]) marks.push({ start: span[0], end: span[1], scope: v.name });
      }
    };
    const run = (rules: Rule[], from: number, end: string | undefined): { stop: number; endMatch?: RegExpExecArray } => {
      let pos = from;
      const flat = this.flatten(rules);
      while (pos <= line.length) {
        let best: { m: RegExpExecArray; rule?: Rule } | undefined;
        if (end !== undefined) {
          const m = this.exec(end, line, pos);
          if (m) best = { m };
        }
        for (const rule of flat) {
          const m = this.exec((rule.match ?? rule.begin)!, line, pos);
          if (m && (!best || m.index < best.m.index)) best = { m, rule };
        }
        if (!best) return { stop: line.length };
        const { m, rule } = best;
        if (!rule) return { stop: m.index + m[0].length, endMatch: m };
        const stop = m.index + m[0].length;
        if (rule.match) {
          if (rule.name && stop > m.index) marks.push({ start: m.index, end: stop, scope: rule.name });
          capture(m, rule.captures);
          pos = stop > pos ? stop : pos + 1;
        } else {
          capture(m, rule.beginCaptures ?? rule.captures);
          const inner = run(rule.patterns ?? [], stop, rule.end!);
          if (rule.name) marks.push({ start: m.index, end: inner.stop, scope: rule.name });
          if (inner.endMatch) capture(inner.endMatch, rule.endCaptures ?? rule.captures);
          pos = inner.stop > pos ? inner.stop : pos + 1;
        }
        if (pos > line.length) return { stop: line.length };
      }
      return { stop: line.length };
    };
    run(this.grammar.patterns, 0, undefined);
    // Split the line at every mark boundary and attach the scopes covering each piece.
    const cuts = new Set<number>([0, line.length]);
    for (const mk of marks) cuts.add(mk.start).add(mk.end);
    const points = [...cuts].sort((a, b) => a - b);
    const out: ScopedToken[] = [];
    for (let i = 0; i + 1 < points.length; i++) {
      const [s, e] = [points[i]!, points[i + 1]!];
      const scopes = marks
        .filter((mk) => mk.start <= s && e <= mk.end)
        .sort((a, b) => b.end - b.start - (a.end - a.start))
        .map((mk) => mk.scope);
      out.push({ text: line.slice(s, e), scopes: [this.grammar.scopeName, ...scopes] });
    }
    return out;
  }
}
