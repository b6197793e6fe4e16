/**
 * The public surface of @teamchat/core: what index.ts exports is documented and holds no
 * internals; internals stay reachable through @teamchat/core/internal.
 */
import { fileURLToPath } from 'node:url';
import * as core from '@teamchat/core';
import * as internal from '@teamchat/core/internal';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Helpers an embedder must not depend on: each one's module can change without notice. */
const INTERNALS = [
  'insertMessage',
  'publishOnCommit',
  'QueueRegistry',
  'varName',
  'validateInput',
  'userOperation',
  'STATE_SECTIONS',
  'defineStateSection',
  'toJson',
  'formatUser',
  'sendNotificationBotMessage',
  'deliverDueScheduledMessages',
  'createSqliteStorage',
];


const INDEX = fileURLToPath(new URL('../../packages/core/src/index.ts', import.meta.url));

describe('@teamchat/core', () => {
  it('exports the entry points an embedder starts from', () => {
    for (const name of ['createContext', 'closeContext', 'startBackgroundWork', 'openEventStream', 'doSendMessage', 'createRealm', 'ApiError']) {
      expect(core).toHaveProperty(name);
    }
  });

  it('exports no internal helper; @teamchat/core/internal has them', () => {
    for (const name of INTERNALS) expect(Object.keys(core)).not.toContain(name);
    for (const name of INTERNALS.filter((n) => !['defineStateSection', 'createSqliteStorage'].includes(n))) expect(internal).toHaveProperty(name);
    expect(Object.keys(internal)).not.toContain('createSqliteStorage');
  });

  it('documents every export with JSDoc', () => {
    const program = ts.createProgram([INDEX], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022 });
    const checker = program.getTypeChecker();
    const entry = checker.getSymbolAtLocation(program.getSourceFile(INDEX)!)!;
    const undocumented = checker
      .getExportsOfModule(entry)
      .map((exported) => ({ name: exported.name, symbol: exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported }))
      .filter(({ symbol }) => symbol.getDocumentationComment(checker).length === 0)
      .map(({ name }) => name);
    expect(undocumented).toEqual([]);
  }, 60_000);
});
