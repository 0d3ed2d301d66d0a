/**
 * A few counters and gauges in the Prometheus text exposition format (version 0.0.4): `# HELP` and
 * `# TYPE` comment lines, then `name{labels} value` samples. Kept deliberately small: what an
 * operator of a local devnet wants to see at a glance.
 */

export type MetricType = 'counter' | 'gauge';

interface Family {
  help: string;
  type: MetricType;
  /** label text (`{a="b"}` or '') → value */
  samples: Map<string, number | bigint>;
}

function labelText(labels: Record<string, string> | undefined): string {
  if (!labels) return '';
  const keys = Object.keys(labels).sort();
  if (keys.length === 0) return '';
  const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
  return `{${keys.map((k) => `${k}="${esc(labels[k]!)}"`).join(',')}}`;
}

/** Counters and gauges the node service reports on its metrics endpoint. */
export class MetricsRegistry {
  readonly #families = new Map<string, Family>();
  readonly #collectors: (() => void)[] = [];

  define(name: string, type: MetricType, help: string): void {
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name)) throw new Error(`bad metric name ${name}`);
    if (!this.#families.has(name)) this.#families.set(name, { help, type, samples: new Map() });
  }

  inc(name: string, labels?: Record<string, string>, by = 1): void {
    const f = this.#family(name);
    const key = labelText(labels);
    const prev = f.samples.get(key) ?? 0;
    f.samples.set(key, typeof prev === 'bigint' ? prev + BigInt(by) : prev + by);
  }

  set(name: string, value: number | bigint, labels?: Record<string, string>): void {
    this.#family(name).samples.set(labelText(labels), value);
  }

  get(name: string, labels?: Record<string, string>): number | bigint | undefined {
    return this.#families.get(name)?.samples.get(labelText(labels));
  }

  /** Runs before each exposition, to refresh gauges that mirror other state. */
  onCollect(collect: () => void): void {
    this.#collectors.push(collect);
  }

  render(): string {
    for (const c of this.#collectors) c();
    const lines: string[] = [];
    for (const [name, f] of this.#families) {
      lines.push(`# HELP ${name} ${f.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${name} ${f.type}`);
      const samples = f.samples.size ? f.samples : new Map([['', 0]]);
      for (const [labels, value] of samples) lines.push(`${name}${labels} ${value}`);
    }
    return lines.join('\n') + '\n';
  }

  #family(name: string): Family {
    const f = this.#families.get(name);
    if (!f) throw new Error(`metric ${name} is not defined`);
    return f;
  }
}
