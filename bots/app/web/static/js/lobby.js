// The lobby: choose a variant and its options, the seats, the budget and a seed; start a game.
import { postJSON } from "./ws.js";

const $ = (id) => document.getElementById(id);
let info = { variants: [], levels: [] };

/** The options of each variant from /api/info: {variant: {option: {values, default}}}. */
function variantOptions() {
  const raw = info.variant_options || info.options || {};
  if (Array.isArray(info.variants) && info.variants.length && typeof info.variants[0] === "object") {
    return Object.fromEntries(info.variants.map((v) => [v.name, v.options || {}]));
  }
  return raw;
}

function variantNames() {
  const names = info.variants || [];
  return names.map((v) => (typeof v === "object" ? v.name : v));
}

function optionValues(spec) {
  return (spec.values || spec.allowed || spec.choices || []).map(String);
}

function renderOptions() {
  const specs = variantOptions()[$("variant").value] || {};
  const box = $("options");
  box.innerHTML = "";
  for (const [name, spec] of Object.entries(specs)) {
    const label = document.createElement("label");
    label.textContent = `${name} `;
    const select = document.createElement("select");
    select.dataset.option = name;
    select.setAttribute("aria-label", name);
    for (const value of optionValues(spec)) select.add(new Option(value, value));
    select.value = String(spec.default);
    label.appendChild(select);
    box.appendChild(label);
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
  const name = $("variant").value;
  const specs = variantOptions()[name] || {};
  const changed = [...$("options").querySelectorAll("select")]
    .filter((s) => s.value !== String(specs[s.dataset.option]?.default))
    .map((s) => `${s.dataset.option}=${s.value}`);
  return changed.length ? `${name}:${changed.join(",")}` : name;
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
