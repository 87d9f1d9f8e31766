import { useCallback, useEffect, useRef, useState } from 'react';
import { useAccountDocument, type AccountDocumentStatus } from '@/lib/account-documents';
import { DEFAULT_GENERATOR_SETTINGS, generatorSettingsSchema, type GeneratorSettings } from '@/lib/generator';

/** A slider drag or a run of clicks is saved once, this long after the last change. */
export const SETTINGS_SAVE_DELAY_MS = 600;

export interface GeneratorSettingsState {
  settings: GeneratorSettings;
  setSettings(settings: GeneratorSettings): void;
  status: AccountDocumentStatus;
  /** Why the last save failed, in words; null when it did not. */
  saveProblem: string | null;
  /** Replaces a damaged document with the defaults (the person's choice). */
  reset?(): Promise<unknown>;
}

/**
 * The generator settings of the signed-in account: the 'generator-settings' account document
 * (encrypted, on every device). Changes show at once and are saved after a pause; a pending
 * save is sent when the generator closes.
 */
export function useAccountGeneratorSettings(): GeneratorSettingsState {
  const document = useAccountDocument('generator-settings', generatorSettingsSchema, DEFAULT_GENERATOR_SETTINGS);
  const [edited, setEdited] = useState<GeneratorSettings | null>(null);
  const [saveProblem, setSaveProblem] = useState<string | null>(null);
  const pending = useRef<{ settings: GeneratorSettings; timer: ReturnType<typeof setTimeout> } | null>(null);
  const { update } = document;

  const save = useCallback(
    (settings: GeneratorSettings) => {
      void update(() => settings).then((outcome) => setSaveProblem(outcome.ok ? null : outcome.message));
    },
    [update],
  );
  const flush = useCallback(() => {
    const waiting = pending.current;
    if (!waiting) return;
    clearTimeout(waiting.timer);
    pending.current = null;
    save(waiting.settings);
  }, [save]);
  useEffect(() => flush, [flush]);

  const setSettings = useCallback(
    (settings: GeneratorSettings) => {
      setEdited(settings);
      if (pending.current) clearTimeout(pending.current.timer);
      pending.current = { settings, timer: setTimeout(flush, SETTINGS_SAVE_DELAY_MS) };
    },
    [flush],
  );

  return {
    settings: edited ?? document.value,
    setSettings,
    status: document.status,
    saveProblem,
    reset: document.reset,
  };
}

/** Where a visitor who is not signed in (or whose vault is locked) keeps the settings: this browser only. */
export const GENERATOR_SETTINGS_STORAGE_KEY = 'lockit.generatorSettings';

function readStoredSettings(): GeneratorSettings {
  try {
    const stored = window.localStorage.getItem(GENERATOR_SETTINGS_STORAGE_KEY);
    if (stored === null) return DEFAULT_GENERATOR_SETTINGS;
    const parsed = generatorSettingsSchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : DEFAULT_GENERATOR_SETTINGS;
  } catch {
    // Storage disabled, or edited by hand into something else: the defaults.
    return DEFAULT_GENERATOR_SETTINGS;
  }
}

/**
 * Settings remembered in this browser's localStorage: options only (a length, which classes),
 * never a generated value, so nothing secret is written there.
 */
export function useBrowserGeneratorSettings(): GeneratorSettingsState {
  const [settings, setState] = useState(readStoredSettings);
  const setSettings = useCallback((next: GeneratorSettings) => {
    setState(next);
    try {
      window.localStorage.setItem(GENERATOR_SETTINGS_STORAGE_KEY, JSON.stringify(next));
    } catch {
      // Not stored: they hold for this page only.
    }
  }, []);
  return { settings, setSettings, status: 'ready', saveProblem: null };
}
