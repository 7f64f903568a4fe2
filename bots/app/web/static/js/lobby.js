// The lobby: choose a variant and its options, the seats, the budget and a seed; start a game.
import { cardElement } from "./cards.js";
import { postJSON } from "./ws.js";

const $ = (id) => document.getElementById(id);
let info = { variants: [], levels: [] };

/** The options of the chosen variant from /api/info: {option: {default, choices}}. */
function currentSpecs() {
  const entry = (info.variant_options || {})[$("variant").value] || {};
  return entry.options || {};
}

function variantNames() {
  return (info.variants || []).map((v) => (typeof v === "object" ? v.name : v));
}

/** The allowed values of an option, from its `choices` text ("low, high or both", "1..99"). */
function optionValues(spec) {
  const text = String(spec.choices || "");
  const range = /^(\d+)\.\.(\d+)/.exec(text);
  if (range) return { min: Number(range[1]), max: Number(range[2]) };
  return text.split(/,\s*|\s+or\s+/).map((v) => v.trim()).filter(Boolean);
}

/** The default as one of the values (an option whose default is off shows the first value). */
function defaultValue(spec) {
  const values = optionValues(spec);
  const text = String(spec.default);
  return !Array.isArray(values) || values.includes(text) ? text : values[0];
}

function optionControl(name, spec) {
  const values = optionValues(spec);
  let control;
  if (Array.isArray(values)) {
    control = document.createElement("select");
    for (const value of values) control.add(new Option(value, value));
  } else {
    control = document.createElement("input");
    Object.assign(control, { type: "number", min: values.min, max: values.max, step: 1 });
    control.style.width = "5em";
  }
  control.dataset.option = name;
  control.dataset.default = defaultValue(spec);
  control.setAttribute("aria-label", name);
  control.value = control.dataset.default;
  return control;
}

function renderOptions() {
  const box = $("options");
  box.innerHTML = "";
  for (const [name, spec] of Object.entries(currentSpecs())) {
    const label = document.createElement("label");
    label.append(`${name.replace("_", " ")} `, optionControl(name, spec));
    box.appendChild(label);
  }
  const entry = (info.variant_options || {})[$("variant").value] || {};
  for (const option of $("count").options) {
    const n = Number(option.value);
    option.disabled = n < (entry.min_players || 2) || n > (entry.max_players || 5);
  }
}

function renderSeats() {
  const count = Number($("count").value);
  const box = $("seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.innerHTML = "";
  for (let i = 0; i < count; i++) {
    const row = document.createElement("div");
    row.className = "seat-row";
    const select = document.createElement("select");
    select.className = "seat";
    select.setAttribute("aria-label", `seat ${i + 1}`);
    select.add(new Option("person", "person"));
    for (const level of info.levels || []) select.add(new Option(`computer: ${level}`, level));
    select.value = old[i] || (i === 0 ? "person" : (info.levels || []).includes("greedy") ? "greedy" : "person");
    row.append(`Seat ${i + 1}`, select);
    box.appendChild(row);
  }
}

/** The variant text "name:opt=val,..." listing only options that differ from the defaults. */
function variantText() {
  const changed = [...$("options").querySelectorAll("[data-option]")]
    .filter((c) => c.value !== c.dataset.default)
    .map((c) => `${c.dataset.option}=${c.value}`);
  return changed.length ? `${$("variant").value}:${changed.join(",")}` : $("variant").value;
}

function showLinks(answer) {
  const base = `${location.protocol}//${location.host}`;
  const people = answer.seats.filter((s) => s.link);
  $("links").innerHTML = "";
  for (const seat of people) {
    const li = document.createElement("li");
    li.innerHTML = `Seat ${seat.seat + 1}: <a href="${seat.link}">${base}${seat.link}</a>`;
    $("links").appendChild(li);
  }
  $("links-panel").classList.toggle("hidden", people.length < 2);
  return people;
}

async function start() {
  $("message").textContent = "";
  const body = { variant: variantText(), seats: [...document.querySelectorAll(".seat")].map((s) => s.value) };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  if ($("budget").value !== "") body.budget = Number($("budget").value);
  const answer = await postJSON("/api/games", body);
  if (!answer.game) {
    $("message").textContent = answer.error || "the server refused the game";
    return;
  }
  const people = showLinks(answer);
  if (!people.length) {
    $("message").textContent = "every seat is a computer: add a person seat to play";
    return;
  }
  // The other person seats' links stay visible on the table page too.
  sessionStorage.setItem("tableLinks", JSON.stringify(people.slice(1).map((p) => p.link)));
  location.href = people[0].link;
}

async function init() {
  for (const card of ["7H", "8H", "9H", "9S", "9D", "9C"]) $("hero-cards").appendChild(cardElement(card));
  try {
    info = await (await fetch("/api/info")).json();
  } catch {
    $("message").textContent = "the server did not answer /api/info";
  }
  for (const name of variantNames()) $("variant").add(new Option(name, name));
  renderOptions();
  renderSeats();
  $("variant").addEventListener("change", renderOptions);
  $("count").addEventListener("change", renderSeats);
  $("start").addEventListener("click", start);
}

init();
