import { KeyManager, startKeyManagerService, TEST_SCRYPT, type RunningKeyManager, type StartKeyManagerOptions } from '../../../sdk/src/services/kmd/index.js';

export const API_TOKEN = 'a'.repeat(64);
export const MDK = Uint8Array.from({ length: 32 }, (_, i) => i);
/** protocol.md §5.4 [computed] vectors for MDK 0x00..0x1f. */
export const KEY1 = 'RARAQGGTYYIAKPP7M44M2ITTE2AXASJD5VIMPRQDU5VJTK3XAA62OLW7IM';
export const KEY2 = 'AY3EXNCEATTJ3KUPVEVDFUYMO6CT3R3S6QQSVIGTXKCFG26L4WGLJU5PF4';

export class ManualClock {
  constructor(public ms = 1_700_000_000_000) {}
  readonly now = () => this.ms;
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

export interface Kmd {
  service: RunningKeyManager;
  keyManager: KeyManager;
  clock: ManualClock;
  /** Calls the service; returns status and parsed JSON body. */
  call(method: string, path: string, body?: unknown, token?: string | null): Promise<{ status: number; body: Record<string, unknown>; text: string }>;
  close(): Promise<void>;
}

export async function startKmd(options: Partial<StartKeyManagerOptions> = {}): Promise<Kmd> {
  const clock = new ManualClock();
  const service = await startKeyManagerService({ apiToken: API_TOKEN, kdf: TEST_SCRYPT, clock: clock.now, sweepIntervalMs: 0, ...options });
  return {
    service,
    keyManager: service.wallets,
    clock,
    async call(method, path, body, token = API_TOKEN) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (token !== null) headers['X-KMD-API-Token'] = token;
      const res = await fetch(service.url + path, {
        method,
        headers,
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      const text = await res.text();
      let parsed: Record<string, unknown> = {};
      try {
        parsed = JSON.parse(text) as Record<string, unknown>;
      } catch {
        /* not JSON; tests look at text */
      }
      return { status: res.status, body: parsed, text };
    },
    close: () => service.close(),
  };
}
