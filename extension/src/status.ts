// The status bar item: "TEAL v10 · app · 312 B" for the active document.
import * as vscode from 'vscode';
import { statusText, statusTooltip, type DocumentInfo } from './statusText.js';

export type { DocumentInfo };

export class StatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('tealworks.program', vscode.StatusBarAlignment.Right, 100);
  private activeUri: () => string | undefined = () => undefined;

  constructor() {
    this.item.name = 'TEAL program';
  }

  follow(activeUri: () => string | undefined): void {
    this.activeUri = activeUri;
  }

  update(info: DocumentInfo): void {
    if (info.uri !== this.activeUri()) return;
    this.item.text = statusText(info);
    this.item.tooltip = statusTooltip(info);
    this.item.show();
  }

  hide(): void {
    this.item.hide();
  }

  dispose(): void {
    this.item.dispose();
  }
}
