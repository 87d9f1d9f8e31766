import { ZxcvbnFactory, type ZxcvbnResult } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';
import type { StrengthReport, StrengthScore } from './strength-report';

/**
 * The zxcvbn-ts scorer with its dictionaries (about 300 kB of gzip). Only ever imported
 * dynamically (strength.ts) or from a worker, so no page pays for it before it measures a
 * password. Built once: building the ranked dictionaries costs a few hundred milliseconds.
 */
let factory: ZxcvbnFactory | undefined;

function scorer(): ZxcvbnFactory {
  factory ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
  return factory;
}

/** zxcvbn's verdict on `password`, in the report's words. `userInputs` (name, email) count as known to an attacker. */
export function scorePassword(password: string, userInputs: readonly string[] = []): StrengthReport {
  return toReport(scorer().check(password, [...userInputs]));
}

function toReport(result: ZxcvbnResult): StrengthReport {
  return {
    score: result.score as StrengthScore,
    guessesLog10: result.guessesLog10,
    crackTime: result.crackTimes.offlineSlowHashingXPerSecond.display,
    warning: result.feedback.warning || null,
    suggestions: result.feedback.suggestions,
  };
}
