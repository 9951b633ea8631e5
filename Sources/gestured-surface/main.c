/*
 * gestured-surface [--crosshair FX,FY]: one fullscreen Wayland surface that says on stdout what
 * touches it gets (gestured(8), "GESTURED-SURFACE"; `gestured doctor --probe-cancel` and
 * `gestured calibrate` read it). Lines, each flushed at once:
 *
 *   ready WIDTH HEIGHT            the surface is configured with the compositor's size and its
 *                                 buffer committed (again after a resize)
 *   down ID X Y | motion ID X Y | up ID | cancel | frame
 *                                 wl_touch's events, X Y in surface coordinates
 *
 * It exits 0 when stdin reaches end of file or on SIGTERM (or SIGINT), 1 with a message on stderr
 * when it cannot connect, the compositor lacks what it needs, or the connection fails, 2 for a
 * usage error. One poll loop over the display, stdin and a signalfd; nothing sleeps.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"

/* The size drawn when the compositor leaves it to the client (0×0 in the configure). */
enum { FALLBACK_WIDTH = 640, FALLBACK_HEIGHT = 480 };
/* The crosshair's arms: half-length and thickness in surface pixels. */
enum { CROSS_ARM = 40, CROSS_THICK = 3 };
/* A buffer larger than this (bytes) is refused: every resource bounded (16384² × 4). */
static const size_t MAX_BUFFER = (size_t)16384 * 16384 * 4;

struct state {
    struct wl_display *display;
    struct wl_compositor *compositor;
    struct wl_shm *shm;
    struct wl_seat *seat;
    struct wl_touch *touch;
    struct xdg_wm_base *wm_base;
    struct wl_surface *surface;
    struct xdg_surface *xdg_surface;
    struct xdg_toplevel *toplevel;
    struct wl_buffer *buffer;
    int has_crosshair;
    double cross_x, cross_y;
    int32_t pending_width, pending_height;
    int32_t width, height;
    /* xdg_surface.configure events so far: a `ready` is said only for the newest one. */
    uintptr_t configures;
    /* Whether the newest buffer has the compositor's size (not the fallback). */
    int sized;
};

/* The one state, for the sync callbacks (whose user data is the configure they answer). */
static struct state *the_state;

static void die(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fputs("gestured-surface: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    exit(1);
}

/* One line on stdout, flushed at once; a reader that went away ends the program. */
static void emit(const char *format, ...) {
    va_list args;
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    putchar('\n');
    if (fflush(stdout) != 0) exit(errno == EPIPE ? 0 : 1);
}

/* ---- the picture: white, with the crosshair where asked ---------------------------------- */

static struct wl_buffer *draw(struct state *s, int32_t width, int32_t height) {
    size_t stride = (size_t)width * 4, size = stride * (size_t)height;
    if (size > MAX_BUFFER) die("a %dx%d surface is larger than the %zu bytes allowed", width, height, MAX_BUFFER);
    int fd = memfd_create("gestured-surface", MFD_CLOEXEC);
    if (fd < 0) die("memfd_create: %s", strerror(errno));
    if (ftruncate(fd, (off_t)size) != 0) die("ftruncate %zu: %s", size, strerror(errno));
    uint32_t *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (pixels == MAP_FAILED) die("mmap %zu: %s", size, strerror(errno));
    for (size_t k = 0; k < size / 4; k++) pixels[k] = 0xFFFFFFFF;
    if (s->has_crosshair) {
        int32_t cx = (int32_t)(s->cross_x * width), cy = (int32_t)(s->cross_y * height);
        for (int32_t y = cy - CROSS_ARM; y <= cy + CROSS_ARM; y++)
            for (int32_t x = cx - CROSS_ARM; x <= cx + CROSS_ARM; x++) {
                int on_arm = (abs(y - cy) <= CROSS_THICK / 2) || (abs(x - cx) <= CROSS_THICK / 2);
                if (on_arm && x >= 0 && y >= 0 && x < width && y < height) pixels[(size_t)y * width + x] = 0xFF000000;
            }
    }
    munmap(pixels, size);
    struct wl_shm_pool *pool = wl_shm_create_pool(s->shm, fd, (int32_t)size);
    struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, width, height, (int32_t)stride, WL_SHM_FORMAT_XRGB8888);
    wl_shm_pool_destroy(pool);
    close(fd);
    return buffer;
}

/* ---- `ready` once the compositor has processed the commit -------------------------------- */

/* `ready` waits for a size the compositor chose: sway first sends 0×0, maps the fallback
 * buffer, and only then sends the fullscreen size; a `ready` for the fallback would be a size the
 * surface does not keep. And only for the newest configure. */
static void committed(void *data, struct wl_callback *callback, uint32_t serial) {
    (void)serial;
    wl_callback_destroy(callback);
    if ((uintptr_t)data == the_state->configures && the_state->sized)
        emit("ready %d %d", the_state->width, the_state->height);
}

static const struct wl_callback_listener committed_listener = { committed };

/* ---- xdg-shell ------------------------------------------------------------------------- */

static void wm_ping(void *data, struct xdg_wm_base *base, uint32_t serial) {
    (void)data;
    xdg_wm_base_pong(base, serial);
}

static const struct xdg_wm_base_listener wm_listener = { wm_ping };

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t width, int32_t height,
                               struct wl_array *states) {
    (void)toplevel; (void)states;
    struct state *s = data;
    s->pending_width = width;
    s->pending_height = height;
}

static void toplevel_close(void *data, struct xdg_toplevel *toplevel) {
    (void)data; (void)toplevel;
    exit(0);
}

static const struct xdg_toplevel_listener toplevel_listener = { toplevel_configure, toplevel_close };

static void surface_configure(void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
    struct state *s = data;
    s->configures++;
    xdg_surface_ack_configure(xdg_surface, serial);
    int32_t width = s->pending_width > 0 ? s->pending_width : FALLBACK_WIDTH;
    int32_t height = s->pending_height > 0 ? s->pending_height : FALLBACK_HEIGHT;
    s->sized = s->pending_width > 0 && s->pending_height > 0;
    if (s->buffer && width == s->width && height == s->height) {
        wl_surface_commit(s->surface);
        return;
    }
    if (s->buffer) wl_buffer_destroy(s->buffer);
    s->buffer = draw(s, width, height);
    s->width = width;
    s->height = height;
    wl_surface_attach(s->surface, s->buffer, 0, 0);
    wl_surface_damage(s->surface, 0, 0, width, height);
    wl_surface_commit(s->surface);
    wl_callback_add_listener(wl_display_sync(s->display), &committed_listener, (void *)s->configures);
}

static const struct xdg_surface_listener surface_listener = { surface_configure };

/* ---- wl_touch -------------------------------------------------------------------------- */

static void touch_down(void *data, struct wl_touch *touch, uint32_t serial, uint32_t time, struct wl_surface *surface,
                       int32_t id, wl_fixed_t x, wl_fixed_t y) {
    (void)data; (void)touch; (void)serial; (void)time; (void)surface;
    emit("down %d %.2f %.2f", id, wl_fixed_to_double(x), wl_fixed_to_double(y));
}

static void touch_up(void *data, struct wl_touch *touch, uint32_t serial, uint32_t time, int32_t id) {
    (void)data; (void)touch; (void)serial; (void)time;
    emit("up %d", id);
}

static void touch_motion(void *data, struct wl_touch *touch, uint32_t time, int32_t id, wl_fixed_t x, wl_fixed_t y) {
    (void)data; (void)touch; (void)time;
    emit("motion %d %.2f %.2f", id, wl_fixed_to_double(x), wl_fixed_to_double(y));
}

static void touch_frame(void *data, struct wl_touch *touch) {
    (void)data; (void)touch;
    emit("frame");
}

static void touch_cancel(void *data, struct wl_touch *touch) {
    (void)data; (void)touch;
    emit("cancel");
}

static void touch_shape(void *data, struct wl_touch *touch, int32_t id, wl_fixed_t major, wl_fixed_t minor) {
    (void)data; (void)touch; (void)id; (void)major; (void)minor;
}

static void touch_orientation(void *data, struct wl_touch *touch, int32_t id, wl_fixed_t orientation) {
    (void)data; (void)touch; (void)id; (void)orientation;
}

static const struct wl_touch_listener touch_listener = {
    touch_down, touch_up, touch_motion, touch_frame, touch_cancel, touch_shape, touch_orientation,
};

/* The seat gains and loses touch as touchscreens come and go (the probe's clone comes late). */
static void seat_capabilities(void *data, struct wl_seat *seat, uint32_t capabilities) {
    struct state *s = data;
    int has_touch = (capabilities & WL_SEAT_CAPABILITY_TOUCH) != 0;
    if (has_touch && !s->touch) {
        s->touch = wl_seat_get_touch(seat);
        wl_touch_add_listener(s->touch, &touch_listener, s);
    } else if (!has_touch && s->touch) {
        if (wl_touch_get_version(s->touch) >= WL_TOUCH_RELEASE_SINCE_VERSION) wl_touch_release(s->touch);
        else wl_touch_destroy(s->touch);
        s->touch = NULL;
    }
}

static void seat_name(void *data, struct wl_seat *seat, const char *name) {
    (void)data; (void)seat; (void)name;
}

static const struct wl_seat_listener seat_listener = { seat_capabilities, seat_name };

/* ---- globals --------------------------------------------------------------------------- */

static uint32_t lower(uint32_t a, uint32_t b) { return a < b ? a : b; }

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    struct state *s = data;
    if (strcmp(interface, wl_compositor_interface.name) == 0 && !s->compositor) {
        s->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, lower(version, 4));
    } else if (strcmp(interface, wl_shm_interface.name) == 0 && !s->shm) {
        s->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
    } else if (strcmp(interface, wl_seat_interface.name) == 0 && !s->seat) {
        s->seat = wl_registry_bind(registry, name, &wl_seat_interface, lower(version, 5));
        wl_seat_add_listener(s->seat, &seat_listener, s);
    } else if (strcmp(interface, xdg_wm_base_interface.name) == 0 && !s->wm_base) {
        s->wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
        xdg_wm_base_add_listener(s->wm_base, &wm_listener, s);
    }
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data; (void)registry; (void)name;
}

static const struct wl_registry_listener registry_listener = { global, global_remove };

/* ---- the command line and the loop ------------------------------------------------------ */

static void usage(const char *message) {
    fprintf(stderr, "gestured-surface: %s\nusage: gestured-surface [--crosshair FX,FY]   (fractions from 0 to 1)\n", message);
    exit(2);
}

static void parse(struct state *s, int argc, char **argv) {
    for (int k = 1; k < argc; k++) {
        if (strcmp(argv[k], "--crosshair") == 0) {
            if (k + 1 >= argc) usage("--crosshair needs FX,FY");
            char *end = NULL;
            const char *text = argv[++k];
            s->cross_x = strtod(text, &end);
            if (end == text || *end != ',') usage("--crosshair needs FX,FY, two fractions joined by a comma");
            text = end + 1;
            s->cross_y = strtod(text, &end);
            if (end == text || *end != '\0') usage("--crosshair needs FX,FY, two fractions joined by a comma");
            if (!(s->cross_x >= 0 && s->cross_x <= 1 && s->cross_y >= 0 && s->cross_y <= 1))
                usage("--crosshair fractions go from 0 to 1");
            s->has_crosshair = 1;
        } else {
            usage("unknown argument");
        }
    }
}

int main(int argc, char **argv) {
    struct state s = { 0 };
    the_state = &s;
    parse(&s, argc, argv);
    signal(SIGPIPE, SIG_IGN);
    sigset_t stopping;
    sigemptyset(&stopping);
    sigaddset(&stopping, SIGTERM);
    sigaddset(&stopping, SIGINT);
    if (sigprocmask(SIG_BLOCK, &stopping, NULL) != 0) die("sigprocmask: %s", strerror(errno));
    int signals = signalfd(-1, &stopping, SFD_CLOEXEC | SFD_NONBLOCK);
    if (signals < 0) die("signalfd: %s", strerror(errno));

    s.display = wl_display_connect(NULL);
    if (!s.display) {
        const char *name = getenv("WAYLAND_DISPLAY");
        die("cannot connect to the Wayland display %s (XDG_RUNTIME_DIR=%s): %s", name ? name : "wayland-0",
            getenv("XDG_RUNTIME_DIR") ? getenv("XDG_RUNTIME_DIR") : "(unset)", strerror(errno));
    }
    struct wl_registry *registry = wl_display_get_registry(s.display);
    wl_registry_add_listener(registry, &registry_listener, &s);
    if (wl_display_roundtrip(s.display) < 0) die("the compositor closed the connection: %s", strerror(errno));
    if (!s.compositor) die("the compositor has no wl_compositor");
    if (!s.shm) die("the compositor has no wl_shm");
    if (!s.wm_base) die("the compositor has no xdg_wm_base (xdg-shell)");
    if (!s.seat) die("the compositor has no wl_seat");

    s.surface = wl_compositor_create_surface(s.compositor);
    s.xdg_surface = xdg_wm_base_get_xdg_surface(s.wm_base, s.surface);
    xdg_surface_add_listener(s.xdg_surface, &surface_listener, &s);
    s.toplevel = xdg_surface_get_toplevel(s.xdg_surface);
    xdg_toplevel_add_listener(s.toplevel, &toplevel_listener, &s);
    xdg_toplevel_set_title(s.toplevel, "gestured-surface");
    xdg_toplevel_set_app_id(s.toplevel, "gestured-surface");
    xdg_toplevel_set_fullscreen(s.toplevel, NULL);
    wl_surface_commit(s.surface);

    struct pollfd fds[3] = {
        { .fd = wl_display_get_fd(s.display), .events = POLLIN },
        { .fd = STDIN_FILENO, .events = POLLIN },
        { .fd = signals, .events = POLLIN },
    };
    for (;;) {
        while (wl_display_prepare_read(s.display) != 0)
            if (wl_display_dispatch_pending(s.display) < 0) die("the connection failed: %s", strerror(errno));
        /* What does not fit the socket now waits for POLLOUT. */
        fds[0].events = POLLIN;
        if (wl_display_flush(s.display) < 0) {
            if (errno != EAGAIN) { wl_display_cancel_read(s.display); die("the connection failed: %s", strerror(errno)); }
            fds[0].events |= POLLOUT;
        }
        if (poll(fds, 3, -1) < 0) {
            wl_display_cancel_read(s.display);
            if (errno == EINTR) continue;
            die("poll: %s", strerror(errno));
        }
        if (fds[0].revents & (POLLIN | POLLERR | POLLHUP)) {
            if (wl_display_read_events(s.display) < 0) die("the compositor closed the connection: %s", strerror(errno));
        } else {
            wl_display_cancel_read(s.display);
        }
        if (wl_display_dispatch_pending(s.display) < 0) die("the connection failed: %s", strerror(errno));
        if (fds[1].revents) {
            char discard[256];
            ssize_t n = read(STDIN_FILENO, discard, sizeof discard);
            if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) break;
        }
        if (fds[2].revents & POLLIN) break;
    }
    wl_display_disconnect(s.display);
    return 0;
}
