// @ts-check
// Small DOM helpers of the cluster page. Text always goes in as text (never as HTML).

/** @typedef {Node | string | number | null | undefined | false} Child */

/**
 * An HTML element with attributes (`class`, `data-*`, ...) and children.
 *
 * @template {keyof HTMLElementTagNameMap} T
 * @param {T} tag
 * @param {Record<string, string | number | undefined>} [attributes]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[T]}
 */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  append(element, children);
  return element;
}

/**
 * An SVG element with attributes and children.
 *
 * @template {keyof SVGElementTagNameMap} T
 * @param {T} tag
 * @param {Record<string, string | number | undefined>} [attributes]
 * @param {...Child} children
 * @returns {SVGElementTagNameMap[T]}
 */
function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS('http://www.w3.org/2000/svg', tag);
  setAttributes(element, attributes);
  append(element, children);
  return element;
}

/**
 * @param {Element} element
 * @param {Record<string, string | number | undefined>} attributes
 */
function setAttributes(element, attributes) {
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined) element.setAttribute(name, String(value));
  }
}

/**
 * @param {Element} element
 * @param {Child[]} children
 */
function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'number' ? String(child) : child);
  }
}

/**
 * A number for people: thousands separated, at most `digits` decimals.
 *
 * @param {number} value
 * @param {number} [digits]
 */
function formatNumber(value, digits = 1) {
  return value.toLocaleString('en-US', { maximumFractionDigits: digits });
}

/**
 * How long ago `at` was, for people: `4 s ago`, `3 min ago`.
 *
 * @param {number} at epoch ms
 * @param {number} now epoch ms
 */
function ago(at, now) {
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 120) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} min ago` : `${Math.round(minutes / 60)} h ago`;
}

/**
 * A duration for people: `850 ms`, `2.4 s`.
 *
 * @param {number} ms
 */
function duration(ms) {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${formatNumber(ms / 1000)} s`;
}

/**
 * A clock time: `14:03:27`.
 *
 * @param {number} at epoch ms
 */
function clock(at) {
  return new Date(at).toLocaleTimeString('en-GB', { hour12: false });
}
