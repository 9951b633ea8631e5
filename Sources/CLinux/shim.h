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
