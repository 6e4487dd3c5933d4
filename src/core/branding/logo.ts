// The logo a branding carries: a data URL of a PNG (its signature checked) or of an SVG (parsed with
// fast-xml-parser and refused when it could run anything or fetch anything), at most 256 KB
// decoded. Pages show it through <img>, where an SVG runs no script anyway; it is refused all the
// same, because an operator may open the file itself, and a logo is also printed or mailed.
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export const LOGO_MAX_BYTES = 256 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface Logo {
  type: 'image/png' | 'image/svg+xml';
  bytes: Buffer;
}

/** Why a logo is refused, as its field's message. */
export class LogoProblem extends Error {}

/** Elements that run script or pull in another document. */
const ACTIVE_ELEMENTS = new Set(['script', 'foreignobject', 'iframe', 'embed', 'object', 'handler', 'listener', 'audio', 'video']);
/** Attributes whose value is a link: only a fragment of the same file (#id) is allowed. */
const LINK_ATTRIBUTES = new Set(['href', 'src']);

const localName = (name: string) => name.slice(name.lastIndexOf(':') + 1).toLowerCase();

/** Numeric character references decoded, as a browser would before it looks at a URL. */
function decoded(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCodePoint(Math.min(parseInt(h, 16), 0x10ffff)))
    .replace(/&#([0-9]+);?/g, (_, d: string) => String.fromCodePoint(Math.min(parseInt(d, 10), 0x10ffff)));
}

/** What a browser would read as a scheme, with the blanks and controls it skips removed. */
function compact(value: string): string {
  // eslint-disable-next-line no-control-regex -- controls and blanks are what a URL parser skips
  return decoded(value).replace(/[\u0000-\u0020\u007f]+/g, '').toLowerCase();
}

const SCRIPT_URL = /(java|vb)script:|data:text\/html/;

/** `url(...)` other than `url(#id)`, or an `@import`, in a style (attribute or element). */
function externalStyle(css: string): boolean {
  const c = compact(css);
  if (c.includes('@import')) return true;
  for (const m of c.matchAll(/url\(([^)]*)\)/g)) {
    if (!m[1]!.replace(/^['"]/, '').startsWith('#')) return true;
  }
  return false;
}

type Node = Record<string, unknown> & { ':@'?: Record<string, string> };

function checkSvg(text: string): void {
  // A DOCTYPE may declare entities (the billion-laughs expansion, external ones): a logo needs none.
  if (/<!doctype|<!entity/i.test(text)) throw new LogoProblem('an SVG with a DOCTYPE or entity declarations is refused');
  const valid = XMLValidator.validate(text, { allowBooleanAttributes: true });
  if (valid !== true) throw new LogoProblem(`is not a well-formed SVG (${valid.err.msg}, line ${valid.err.line})`);
  const parser = new XMLParser({
    preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', allowBooleanAttributes: true,
    processEntities: false, parseAttributeValue: false, parseTagValue: false, trimValues: false, ignoreDeclaration: false, ignorePiTags: false,
  });
  const tree = parser.parse(text) as Node[];
  let root: string | undefined;
  const walk = (nodes: Node[], depth: number, parent: string | null) => {
    if (depth > 200) throw new LogoProblem('nests elements too deeply');
    for (const node of nodes) {
      const name = Object.keys(node).find((k) => k !== ':@');
      if (!name || name === '#text' || name === '#comment') {
        if (name === '#text' && parent === 'style' && externalStyle(String(node[name]))) throw new LogoProblem('has a style that loads something from elsewhere (@import or url())');
        continue;
      }
      const attrs = node[':@'] ?? {};
      if (name.startsWith('?')) {
        if (name !== '?xml') throw new LogoProblem(`has a processing instruction <${name}> (a stylesheet from elsewhere)`);
        continue;
      }
      const local = localName(name);
      if (depth === 0) root ??= local;
      if (ACTIVE_ELEMENTS.has(local)) throw new LogoProblem(`carries script: a <${name}> element is refused`);
      for (const [attr, raw] of Object.entries(attrs)) {
        const a = localName(attr);
        const value = String(raw);
        if (a.startsWith('on')) throw new LogoProblem(`carries script: an event handler attribute (${attr} on <${name}>) is refused`);
        if (SCRIPT_URL.test(compact(value))) throw new LogoProblem(`carries script: a javascript: URL (${attr} on <${name}>) is refused`);
        if (LINK_ATTRIBUTES.has(a) && !decoded(value).trim().startsWith('#')) throw new LogoProblem(`links outside itself (${attr}="${value.slice(0, 60)}" on <${name}>): only #fragment links are allowed`);
        if (a === 'style' && externalStyle(value)) throw new LogoProblem(`has a style that loads something from elsewhere (on <${name}>)`);
        // An animation that sets a link would bring back what the attribute check refused.
        if (a === 'attributename' && LINK_ATTRIBUTES.has(localName(value.trim()))) throw new LogoProblem(`animates a link (<${name} attributeName="${value}">), which is refused`);
      }
      const children = node[name];
      if (Array.isArray(children)) walk(children as Node[], depth + 1, local);
    }
  };
  walk(tree, 0, null);
  if (root !== 'svg') throw new LogoProblem('is not an SVG: its root element must be <svg>');
}

/** Parses and checks a logo data URL; throws LogoProblem with the reason. */
export function parseLogo(dataUrl: string): Logo {
  const m = /^data:(image\/png|image\/svg\+xml)((?:;[a-z0-9-]+=[^;,]*)*)(;base64)?,(.*)$/is.exec(dataUrl);
  if (!m) throw new LogoProblem('must be a data URL of a PNG or SVG image (data:image/png;base64,… or data:image/svg+xml;base64,…)');
  const type = m[1]!.toLowerCase() as Logo['type'];
  const payload = m[4]!;
  let bytes: Buffer;
  if (m[3]) {
    const b64 = payload.replace(/\s+/g, '');
    if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) throw new LogoProblem('is not valid base64');
    // Checked before decoding so that a huge payload costs no buffer.
    if ((b64.length / 4) * 3 > LOGO_MAX_BYTES + 2) throw new LogoProblem(`is larger than ${LOGO_MAX_BYTES / 1024} KB`);
    bytes = Buffer.from(b64, 'base64');
  } else {
    if (type === 'image/png') throw new LogoProblem('a PNG must be base64 encoded (data:image/png;base64,…)');
    try {
      bytes = Buffer.from(decodeURIComponent(payload), 'utf8');
    } catch {
      throw new LogoProblem('is not a valid percent-encoded data URL');
    }
  }
  if (bytes.length === 0) throw new LogoProblem('is empty');
  if (bytes.length > LOGO_MAX_BYTES) throw new LogoProblem(`is larger than ${LOGO_MAX_BYTES / 1024} KB`);
  if (type === 'image/png') {
    // The signature, then the IHDR chunk every PNG starts with.
    if (bytes.length < 33 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString('latin1', 12, 16) !== 'IHDR') {
      throw new LogoProblem('is not a PNG image (its signature does not match)');
    }
  } else {
    const text = bytes.toString('utf8');
    if (text.includes('\uFFFD')) throw new LogoProblem('an SVG must be UTF-8 text');
    checkSvg(text.replace(/^\uFEFF/, ''));
  }
  return { type, bytes };
}

