// The organiser's form for an event's listing in the calendar (issue 22.3):
// dates, venue, 组别, rating limits, registration open or closed.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("listing-form");
  if (!form) return;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = document.getElementById("listing-error");
    err.textContent = "";
    const num = (v) => v === "" ? null : Number(v);
    const body = {
      starts: form.starts.value || null, ends: form.ends.value || null,
      venue: form.venue.value.trim(),
      groups: form.groups.value.split(/[,，、]/).map(g => g.trim()).filter(Boolean),
      min_rating: num(form.min_rating.value), max_rating: num(form.max_rating.value),
      registration: form.registration.value,
    };
    try {
      await qisai.api("PUT", `/api/tournaments/${form.dataset.id}/listing`, body);
      location.reload();
    } catch (e) { err.textContent = e.message; }
  });
});
