// EPP's XML, both ways, through fast-xml-parser: frames are built from element trees (order kept:
// EPP's schemas are sequences) and parsed into trees whose elements carry their namespace URI, so
// a reader matches `urn:ietf:params:xml:ns:domain-1.0` whatever prefix the peer chose.
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';

export const NS = {
  epp: 'urn:ietf:params:xml:ns:epp-1.0',
  domain: 'urn:ietf:params:xml:ns:domain-1.0',
  contact: 'urn:ietf:params:xml:ns:contact-1.0',
  host: 'urn:ietf:params:xml:ns:host-1.0',
} as const;

export type NsName = keyof typeof NS;

/** A parsed element: its namespace URI (null: none), local name, attributes, children and text. */
export interface XmlEl {
  ns: string | null;
  name: string;
  attrs: Record<string, string>;
  children: XmlEl[];
  text: string;
}

/** An element to build: `prefix:name` (prefix one of NS, or none for EPP's default namespace). */
export interface BuildEl {
  tag: string;
  attrs?: Record<string, string | undefined>;
  children?: (BuildEl | null | undefined | false)[];
  text?: string;
}

export class XmlError extends Error {}

/** `el('domain:name', 'example.com')`, `el('domain:check', [..])`, `el('domain:period', {unit:'y'}, '1')`. */
export function el(tag: string, ...rest: (Record<string, string | undefined> | BuildEl['children'] | string | undefined)[]): BuildEl {
  const out: BuildEl = { tag };
  for (const r of rest) {
    if (r === undefined) continue;
    if (typeof r === 'string') out.text = r;
    else if (Array.isArray(r)) out.children = r;
    else out.attrs = r;
  }
  return out;
}

/** An object's top element with its namespace declared (`domain:check` → xmlns:domain). */
export function objectEl(tag: `${NsName}:${string}`, children: BuildEl['children']): BuildEl {
  const prefix = tag.slice(0, tag.indexOf(':')) as NsName;
  return el(tag, { [`xmlns:${prefix}`]: NS[prefix] }, children);
}

type Ordered = Record<string, unknown>;

function toOrdered(node: BuildEl): Ordered {
  const kids: Ordered[] = [];
  if (node.text !== undefined) kids.push({ '#text': node.text });
  for (const c of node.children ?? []) if (c) kids.push(toOrdered(c));
  const out: Ordered = { [node.tag]: kids };
  const attrs = Object.entries(node.attrs ?? {}).filter(([, v]) => v !== undefined);
  if (attrs.length) out[':@'] = Object.fromEntries(attrs.map(([k, v]) => [`@_${k}`, v]));
  return out;
}

const builder = new XMLBuilder({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '@_', suppressEmptyNode: true, processEntities: true });

/** A whole EPP document: `<epp xmlns="…epp-1.0">` around `body` (command, response, greeting, hello). */
export function eppDocument(body: BuildEl): string {
  const root = el('epp', { xmlns: NS.epp }, [body]);
  return builder.build([
    { '?xml': [{ '#text': '' }], ':@': { '@_version': '1.0', '@_encoding': 'UTF-8', '@_standalone': 'no' } },
    toOrdered(root),
  ]) as string;
}

const parser = new XMLParser({
  preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, parseAttributeValue: false,
  trimValues: true, processEntities: true, ignoreDeclaration: true, ignorePiTags: true,
});

type Scope = Record<string, string>;

function resolve(node: Ordered, scope: Scope): XmlEl | null {
  const tag = Object.keys(node).find((k) => k !== ':@');
  if (!tag || tag === '#text' || tag.startsWith('?') || tag === '#comment') return null;
  const rawAttrs = (node[':@'] ?? {}) as Record<string, string>;
  const inner: Scope = { ...scope };
  const attrs: Record<string, string> = {};
  for (const [k, v] of Object.entries(rawAttrs)) {
    if (k === 'xmlns') inner[''] = v;
    else if (k.startsWith('xmlns:')) inner[k.slice(6)] = v;
    else attrs[k] = String(v);
  }
  const colon = tag.indexOf(':');
  const prefix = colon < 0 ? '' : tag.slice(0, colon);
  const ns = inner[prefix];
  if (prefix && ns === undefined) throw new XmlError(`Undeclared namespace prefix "${prefix}" on <${tag}>`);
  const out: XmlEl = { ns: ns ?? null, name: colon < 0 ? tag : tag.slice(colon + 1), attrs, children: [], text: '' };
  for (const child of (node[tag] ?? []) as Ordered[]) {
    if ('#text' in child) out.text += String(child['#text']);
    else {
      const c = resolve(child, inner);
      if (c) out.children.push(c);
    }
  }
  return out;
}

/** Parses one EPP frame: well-formed, no DTD, root <epp> in EPP's namespace. */
export function parseEpp(xml: string): XmlEl {
  if (/<!DOCTYPE/i.test(xml)) throw new XmlError('EPP frames may not carry a DTD');
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new XmlError(`Not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const nodes = parser.parse(xml) as Ordered[];
  const roots = nodes.map((n) => resolve(n, {})).filter((n): n is XmlEl => n !== null);
  if (roots.length !== 1 || roots[0]!.name !== 'epp' || roots[0]!.ns !== NS.epp) throw new XmlError(`The root element is not <epp xmlns="${NS.epp}">`);
  return roots[0]!;
}

/** The first child element of `node` named `name` in namespace `ns`. */
export function child(node: XmlEl | undefined, ns: string, name: string): XmlEl | undefined {
  return node?.children.find((c) => c.ns === ns && c.name === name);
}

export function childrenOf(node: XmlEl | undefined, ns: string, name: string): XmlEl[] {
  return node ? node.children.filter((c) => c.ns === ns && c.name === name) : [];
}

/** Follows a path of names in one namespace: path(root, NS.epp, 'response', 'result'). */
export function path(node: XmlEl | undefined, ns: string, ...names: string[]): XmlEl | undefined {
  let at = node;
  for (const n of names) at = child(at, ns, n);
  return at;
}

export function textOf(node: XmlEl | undefined, ns: string, name: string): string | undefined {
  return child(node, ns, name)?.text;
}

/** Every element of the tree (the conformance check walks it). */
export function* walk(node: XmlEl): Generator<XmlEl> {
  yield node;
  for (const c of node.children) yield* walk(c);
}
