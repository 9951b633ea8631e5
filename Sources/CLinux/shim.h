// Linux-only libc headers that Swift's Glibc module does not export.
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/inotify.h>
#include <sys/pidfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <spawn.h>

// Declared by <sys/socket.h> only under _GNU_SOURCE, which the Glibc module is built without.
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

// SO_PEERCRED's struct ucred is declared by <sys/socket.h> only under _GNU_SOURCE; this has its
// layout (pid_t, uid_t, gid_t).
struct gestured_ucred { int pid; unsigned int uid; unsigned int gid; };

// Declared by <unistd.h> only under _GNU_SOURCE.
extern int pipe2(int fds[2], int flags);

// <fcntl.h> defines these only under _GNU_SOURCE (values from the kernel's uapi headers).
#define GESTURED_O_PATH 010000000
#define GESTURED_AT_EMPTY_PATH 0x1000

// statx(2) (struct statx and its STATX_* masks from the kernel's uapi header); <sys/stat.h>
// declares it only under _GNU_SOURCE. `gestured doctor` stats other processes' descriptors
// with it, asking for cached attributes only (AT_STATX_DONT_SYNC), so that a file on a FUSE
// or network mount that does not answer cannot hold the scan.
#include <linux/stat.h>
extern int statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *buffer);
#define GESTURED_AT_STATX_DONT_SYNC 0x4000
#define GESTURED_AT_NO_AUTOMOUNT 0x800

// Starts `path` as uid:gid with no supplementary groups, the way ChildProcess starts children
// with posix_spawn (own process group, default signal dispositions, empty signal mask, `from[k]`
// given as `to[k]`), which cannot change the user. C, because between fork and exec the child
// of a multithreaded process may only make async-signal-safe calls. Returns 0 and the child's pid
// in `child`, or the errno of what failed (fork, or in the child dup2, setgroups, setgid, setuid
// or execve, reported through a close-on-exec pipe; the failed child is reaped).
#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
static inline int gestured_spawn_as(const char *path, char *const argv[], char *const envp[], const int *from,
                                    const int *to, int count, unsigned int uid, unsigned int gid, int *child) {
    int report[2];
    if (pipe2(report, 02000000 /* O_CLOEXEC */) != 0) return errno;
    pid_t pid = fork();
    if (pid < 0) {
        int error = errno;
        close(report[0]);
        close(report[1]);
        return error;
    }
    if (pid == 0) {
        struct sigaction defaults;
        memset(&defaults, 0, sizeof defaults);
        defaults.sa_handler = SIG_DFL;
        for (int signal = 1; signal < _NSIG; signal++) {
            if (signal != SIGKILL && signal != SIGSTOP) sigaction(signal, &defaults, 0);
        }
        sigset_t empty;
        sigemptyset(&empty);
        sigprocmask(SIG_SETMASK, &empty, 0);
        setpgid(0, 0);
        int error = 0;
        for (int k = 0; k < count && error == 0; k++) {
            if (dup2(from[k], to[k]) < 0) error = errno;
        }
        if (error == 0 && (setgroups(0, 0) != 0 || setgid(gid) != 0 || setuid(uid) != 0)) error = errno;
        if (error == 0) {
            execve(path, argv, envp);
            error = errno;
        }
        ssize_t ignored = write(report[1], &error, sizeof error);
        (void)ignored;
        _exit(127);
    }
    close(report[1]);
    int error = 0;
    ssize_t n;
    do n = read(report[0], &error, sizeof error); while (n < 0 && errno == EINTR);
    close(report[0]);
    if (n == (ssize_t)sizeof error) {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        return error;
    }
    *child = pid;
    return 0;
}
