// Small helpers for the page's own elements.

export const $ = (id) => document.getElementById(id);

// Fills a board-size select with 1 x 1 up to max x max and selects `value`.
export function fillSizes(select, max, value) {
  for (let n = 1; n <= max; n++) {
    const option = document.createElement("option");
    option.value = String(n);
    option.textContent = `${n} \u00d7 ${n}`;
    select.appendChild(option);
  }
  select.value = String(value);
}

// Fills a select with [value, text] pairs.
export function fillOptions(select, entries) {
  for (const [value, text] of entries) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = text;
    select.appendChild(option);
  }
}

// Whether the select offers `value`.
export function offers(select, value) {
  return [...select.options].some((o) => o.value === value);
}
