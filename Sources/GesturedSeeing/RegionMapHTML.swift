/// `gestured draw --output FILE.html`: the SVG inline in a page that stands alone (no network,
/// no external script), with a timeline to scrub and play a recording: touch paths grow and
/// gesture markers appear at their times.
///
/// The page reflects its state in the DOM (`body[data-now]`, `display` of timed elements) so a
/// headless browser's DOM dump shows where the timeline is. `#t=SECONDS` opens it at that time;
/// `#play` plays it from the start.
public enum RegionMapHTML {
    public static func page(_ map: RegionMapSVG, title: String) -> String {
        let duration = map.recording?.duration ?? 0
        let d = RegionMapSVG.n(duration, 6)
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(RegionMapSVG.escape(title))</title>
            <style>
            body { font-family: "DejaVu Sans", sans-serif; margin: 8px; }
            #controls { margin: 0 0 8px 0; display: flex; gap: 8px; align-items: center; }
            #timeline { width: 480px; }
            svg { display: block; }
            </style>
            </head>
            <body data-duration="\(d)" data-now="\(d)">

            """
        if map.recording != nil {
            out += """
                <div id="controls">
                <button id="play" type="button">Play</button>
                <input id="timeline" type="range" min="0" max="\(d)" step="0.001" value="\(d)">
                <span id="clock"></span>
                </div>

                """
        }
        out += map.svg(attributes: " id=\"map\"")
        if map.recording != nil { out += "<script>\n\(script)</script>\n" }
        return out + "</body>\n</html>\n"
    }

    static let script = """
        (function () {
          "use strict";
          var svg = document.getElementById("map");
          var slider = document.getElementById("timeline");
          var clock = document.getElementById("clock");
          var play = document.getElementById("play");
          var duration = parseFloat(document.body.getAttribute("data-duration"));
          var paths = Array.prototype.map.call(svg.querySelectorAll("path.touch-path"), function (el) {
            var points = el.getAttribute("data-points").split(" ").map(function (s) {
              var a = s.split(",").map(Number);
              return { t: a[0], x: a[1], y: a[2] };
            });
            return { el: el, points: points };
          });
          var timed = svg.querySelectorAll("[data-t]");
          function show(t) {
            paths.forEach(function (p) {
              var d = "";
              p.points.forEach(function (q) { if (q.t <= t + 1e-9) { d += (d ? " L" : "M") + q.x + " " + q.y; } });
              if (d) { p.el.setAttribute("d", d); p.el.style.display = ""; } else { p.el.style.display = "none"; }
            });
            Array.prototype.forEach.call(timed, function (e) {
              e.style.display = parseFloat(e.getAttribute("data-t")) <= t + 1e-9 ? "" : "none";
            });
            slider.value = String(t);
            document.body.setAttribute("data-now", t.toFixed(3));
            clock.textContent = t.toFixed(3) + " s of " + duration.toFixed(3) + " s";
          }
          var playing = false, startClock = 0, startTime = 0;
          function tick() {
            if (!playing) { return; }
            var t = startTime + (performance.now() - startClock) / 1000;
            if (t >= duration) {
              t = duration; playing = false; play.textContent = "Play";
              document.body.setAttribute("data-played", "true");
            }
            show(t);
            if (playing) { setTimeout(tick, 16); }
          }
          function start(from) {
            playing = true; play.textContent = "Pause";
            startTime = from; startClock = performance.now();
            show(from); setTimeout(tick, 16);
          }
          play.addEventListener("click", function () {
            if (playing) { playing = false; play.textContent = "Play"; return; }
            var from = parseFloat(slider.value);
            start(from >= duration ? 0 : from);
          });
          slider.addEventListener("input", function () {
            playing = false; play.textContent = "Play"; show(parseFloat(slider.value));
          });
          var at = /(?:^#|&)t=([0-9.]+)/.exec(location.hash);
          show(at ? Math.min(parseFloat(at[1]), duration) : duration);
          if (/(?:^#|&)play(?:&|$)/.test(location.hash)) { start(0); }
        })();

        """
}
