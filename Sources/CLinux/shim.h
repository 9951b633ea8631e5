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
