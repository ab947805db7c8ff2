import { describe, expect, it } from "vitest";
import { defaultStateDir, stateLocation } from "./state-location.js";

describe("where a monitor keeps its state", () => {
  it("by default, a directory of its own per API under the user's state home, never the working directory", () => {
    expect(defaultStateDir("http://localhost:42069", { HOME: "/home/ops" })).toBe(
      "/home/ops/.local/state/kusd-monitor/localhost_42069",
    );
    expect(defaultStateDir("https://kusd.example.org/", { HOME: "/home/ops", XDG_STATE_HOME: "/var/state" })).toBe(
      "/var/state/kusd-monitor/kusd.example.org_443",
    );
    expect(stateLocation({ api: "http://10.0.0.7:8080/kusd" }, { HOME: "/h" })).toEqual({
      statePath: "/h/.local/state/kusd-monitor/10.0.0.7_8080_kusd/state.json",
      outboxDir: "/h/.local/state/kusd-monitor/10.0.0.7_8080_kusd/outbox",
      stateUrl: null,
    });
  });

  it("stateDir holds state.json and outbox/; state names the file, its outbox beside it", () => {
    expect(stateLocation({ api: "http://a", stateDir: "/srv/mon" }, {})).toEqual({
      statePath: "/srv/mon/state.json",
      outboxDir: "/srv/mon/outbox",
      stateUrl: null,
    });
    expect(stateLocation({ api: "http://a", state: "/srv/mon/s.json" }, {})).toEqual({
      statePath: "/srv/mon/s.json",
      outboxDir: "/srv/mon/s.json.outbox",
      stateUrl: null,
    });
  });

  it("a postgres:// (or postgresql://) state is a database shared by a group, no file at all", () => {
    for (const url of ["postgres://mon@db.internal:5432/alerts", "postgresql://mon@db/alerts?sslmode=require"])
      expect(stateLocation({ api: "http://a", state: url }, { HOME: "/h" })).toEqual({
        statePath: null,
        outboxDir: null,
        stateUrl: url,
      });
  });
});
