// The shapes the simulate panel's webview scripts (argForm.ts, simulate.ts) work on: the messages
// the extension posts them, the rows of the group form, and the globals the webview provides.
// Type-only: esbuild erases these imports, so nothing of the extension is bundled into the webview.
import type { ArgInfo, MethodInfo } from '../contracts/argForm.js';
import type { SentInfo } from '../contracts/explainView.js';
import type { TxnFormInput, WebviewMessage } from '../contracts/messages.js';
import type { ReportView } from '../contracts/valueFormat.js';

export type { ArgInfo, MethodInfo, ReportView, SentInfo, WebviewMessage };

/** A child the DOM builder takes: text, a node, nothing, or a list of these. */
export type Child = string | Node | undefined | null | false | Child[];

/** An input or change event: its target is the field whose value changed. */
export type ValueEvent = Event & { target: HTMLInputElement & HTMLSelectElement };

/** Attributes for the DOM builder: `on…` keys are listeners, `class` the class name, the rest attributes. */
export interface Attrs {
  [name: string]: unknown;
  oninput?: (ev: ValueEvent) => void;
  onchange?: (ev: ValueEvent) => void;
  onclick?: (ev: MouseEvent) => void;
}

/** The DOM builder both scripts use (text only, never HTML). */
export type ElFn = (tag: string, attrs?: Attrs, ...children: Child[]) => HTMLElement;

/** The draft of a composite argument as its editors hold it (text at the leaves). */
export type Draft = string | undefined | Draft[] | { [field: string]: Draft };

/** One transaction row of the group form: the fields the extension validates (TxnFormInput), plus the form's own bookkeeping. */
export interface FormRow extends Omit<TxnFormInput, 'sender'> {
  [field: string]: unknown;
  sender?: string;
  /** Drafts of composite arguments (structs, tuples, arrays), serialized into `args`. */
  argDrafts?: Draft[];
  /** A transaction-argument row waiting for the address of this app to fill its receiver. */
  awaitApp?: string;
}

/** What the argument pickers offer (accounts and assets). */
export interface PickerContext {
  accounts?: string[];
  assets?: string[];
}

/** The typed method-argument editors (argForm.ts), which simulate.ts finds on `window`. */
export interface ArgFormApi {
  render(row: FormRow, method: MethodInfo, ctx: PickerContext): HTMLElement[];
  datalists(ctx: PickerContext): HTMLElement[];
  highlight(root: ParentNode, index: number | undefined, field: string | undefined, message: unknown): boolean;
  ser(info: ArgInfo, draft: Draft): string;
  el: ElFn;
}

/** Messages the extension posts to the panel (simulatePanel.ts). */
export type PanelMessage =
  | {
      type: 'init';
      rows?: FormRow[];
      accounts?: string[];
      sources?: string[];
      methods?: Record<string, string[]>;
      methodInfo?: Record<string, MethodInfo[]>;
      appAddresses?: Record<string, string>;
      assets?: string[];
      network?: string;
      chain?: string;
      restored?: boolean;
      /** For a restored panel: the network and chain (genesis) its rows were kept on. */
      restoredFrom?: { network?: string; chain?: string };
      /** What the panel says first (e.g. why nothing was run for an app without a spec). */
      notice?: string;
    }
  | { type: 'report'; report: ReportView; warnings?: unknown[]; sent?: SentInfo; sourceFile?: string; network?: string; debuggable?: boolean }
  | { type: 'error'; message: string; index?: number; field?: string }
  | { type: 'network'; network?: string; chain?: string; accounts?: string[] }
  /** The accounts to pick from, on the chain shown (sent after init when they changed while it was made). */
  | { type: 'accounts'; accounts: string[] }
  | { type: 'appAddress'; appId: string; address: string }
  | { type: 'busy'; busy: boolean; what?: string };

/** The part of the webview API (`acquireVsCodeApi()`) the panel uses. */
export interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  /** Kept by VS Code across a window reload (SimulatePanel.restore reads the rows back). */
  setState(state: { rows: unknown[]; network?: string; chain?: string }): void;
}

declare global {
  /** Given to webview scripts by VS Code; callable once per page. */
  function acquireVsCodeApi(): VsCodeApi;
  interface Window {
    /** Set by argForm.js, which the page loads before simulate.js. */
    TealworksArgForm?: ArgFormApi;
  }
}
