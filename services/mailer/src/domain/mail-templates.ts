import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { MailJob } from '@vellum/contracts';

export type TemplateName = MailJob['template'];
export const TEMPLATE_NAMES: readonly TemplateName[] = ['password-reset', 'user-invitation'];

/** The values a template may use: `{{project}}`, `{{url}}`, `{{name}}`, `{{to}}`. */
export const TEMPLATE_VARIABLES = ['project', 'url', 'name', 'to'] as const;
export type TemplateValues = Record<(typeof TEMPLATE_VARIABLES)[number], string>;

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

interface TemplateSource {
  subject: string;
  html: string;
  text: string;
  /** Where each part came from (logs, errors). */
  files: { subject: string; html: string; text: string };
}

export const BUILTIN_TEMPLATES_DIR = path.join(__dirname, '..', 'templates');

const placeholder = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function substitute(template: string, values: TemplateValues, escape: (v: string) => string): string {
  return template.replace(placeholder, (_m, key: string) => escape(values[key as keyof TemplateValues]));
}

function readPart(name: TemplateName, ext: string, overrideDir: string | undefined): { text: string; file: string } {
  const fileName = `${name}${ext}`;
  const override = overrideDir ? path.resolve(overrideDir, fileName) : undefined;
  const file = override && existsSync(override) ? override : path.join(BUILTIN_TEMPLATES_DIR, fileName);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(placeholder)) {
    if (!(TEMPLATE_VARIABLES as readonly string[]).includes(m[1]))
      throw new Error(`template ${file}: unknown placeholder {{${m[1]}}} (known: ${TEMPLATE_VARIABLES.join(', ')})`);
  }
  return { text, file };
}

/**
 * The mail templates, read once at start (a broken override fails the start, not every job). Each part is
 * `<template>.subject.txt`, `<template>.html`, `<template>.txt`; a file in `overrideDir` replaces the built-in one.
 * `{{var}}` is replaced by the value — HTML-escaped in the HTML part, control characters removed in the subject.
 */
export class MailTemplates {
  private readonly sources = new Map<TemplateName, TemplateSource>();

  constructor(overrideDir?: string) {
    if (overrideDir && !existsSync(overrideDir)) throw new Error(`EMAIL_TEMPLATES_PATH "${overrideDir}" does not exist`);
    for (const name of TEMPLATE_NAMES) {
      const subject = readPart(name, '.subject.txt', overrideDir);
      const html = readPart(name, '.html', overrideDir);
      const text = readPart(name, '.txt', overrideDir);
      this.sources.set(name, {
        subject: subject.text.trim(),
        html: html.text,
        text: text.text,
        files: { subject: subject.file, html: html.file, text: text.file },
      });
    }
  }

  files(name: TemplateName): TemplateSource['files'] {
    return this.source(name).files;
  }

  render(name: TemplateName, values: TemplateValues): RenderedMail {
    const s = this.source(name);
    const oneLine = (v: string) => [...v].map((ch) => (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f ? ' ' : ch)).join('');
    return {
      subject: oneLine(substitute(s.subject, values, oneLine)).trim(),
      html: substitute(s.html, values, escapeHtml),
      text: substitute(s.text, values, (v) => v),
    };
  }

  private source(name: TemplateName): TemplateSource {
    const s = this.sources.get(name);
    if (!s) throw new Error(`unknown mail template "${name}"`);
    return s;
  }
}
