// The template-variable form in VS Code: one input per `TMPL_*` placeholder (yes/no pick for the
// updatable/deletable flags), titled with the program and a step count, typed and validated as the
// ARC-56 spec declares, prefilled with what this workspace gave last time, remembered per workspace.
import * as vscode from 'vscode';
import {
  currentValue,
  fieldPrompt,
  missingFields,
  templateOptions,
  templateValueProblem,
  type TemplateCompileOptions,
  type TemplateField,
} from './templateForm.js';

const KEY = 'tealworks.templateValues';

/** What this workspace typed for each program's placeholders (by workspace-relative source). */
export function rememberedTemplateValues(state: vscode.Memento, source: string): Record<string, string> {
  return state.get<Record<string, Record<string, string>>>(KEY, {})[source] ?? {};
}

export async function rememberTemplateValues(state: vscode.Memento, source: string, values: Record<string, string>): Promise<void> {
  const all = { ...state.get<Record<string, Record<string, string>>>(KEY, {}) };
  all[source] = { ...(all[source] ?? {}), ...values };
  await state.update(KEY, all);
}

/**
 * Asks for `fields` (all of them when `all`, else only those without a value yet) and returns the
 * compile options. Cancelling any step cancels the whole form (vscode.CancellationError).
 */
export async function askTemplateValues(
  state: vscode.Memento,
  source: string,
  fields: readonly TemplateField[],
  all: boolean,
): Promise<TemplateCompileOptions> {
  const ask = all ? fields : missingFields(fields);
  const typed: Record<string, string> = {};
  let step = 0;
  for (const f of ask) {
    step++;
    const title = `Template values for ${source} (${step}/${ask.length})`;
    const current = currentValue(f);
    if (f.typeFrom === 'flag') {
      const yes = {
        label: 'true',
        description: f.name === 'TMPL_UPDATABLE' ? 'the creator may update the program later' : 'the creator may delete the app later',
      };
      const no = { label: 'false', description: 'fixed once deployed' };
      const items = current === 'true' ? [yes, no] : [no, yes];
      const pick = await vscode.window.showQuickPick(items, { title, placeHolder: fieldPrompt(f), ignoreFocusOut: true });
      if (!pick) throw new vscode.CancellationError();
      typed[f.name] = pick.label;
      continue;
    }
    const text = await vscode.window.showInputBox({
      title,
      prompt: fieldPrompt(f) + (f.undeclared ? ' · not declared in the spec' : ''),
      ...(current !== undefined ? { value: current } : {}),
      placeHolder: f.name,
      ignoreFocusOut: true,
      validateInput: (v) => templateValueProblem(f, v),
    });
    if (text === undefined) throw new vscode.CancellationError();
    typed[f.name] = text;
  }
  const options = templateOptions(fields, typed);
  if (Object.keys(typed).length) await rememberTemplateValues(state, source, typed);
  return options;
}
