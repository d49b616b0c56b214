#ifndef FMTD_CSYSTEM_H
#define FMTD_CSYSTEM_H

#include <stdint.h>
#include <sys/types.h>

/* Linux calls Swift's Glibc module does not expose (epoll, accept4, SO_PEERCRED, signal masks),
   wrapped in plain C types so no _GNU_SOURCE struct layout reaches Swift. Every call that can fail returns a
   negative value with errno set (SystemCallError on the Swift side reads it). */

typedef struct {
    uint32_t events;
    uint64_t data;
} csys_event;

enum {
    CSYS_EPOLLIN = 0x001,
    CSYS_EPOLLOUT = 0x004,
    CSYS_EPOLLERR = 0x008,
    CSYS_EPOLLHUP = 0x010,
    CSYS_EPOLLRDHUP = 0x2000,
    CSYS_EPOLLEXCLUSIVE = 1 << 28,
};
/* EPOLLET is bit 31, outside an int enum's range. */
static const uint32_t CSYS_EPOLLET = 0x80000000u;

int csys_epoll_create(void);
int csys_epoll_add(int epfd, int fd, uint32_t events, uint64_t data);
int csys_epoll_mod(int epfd, int fd, uint32_t events, uint64_t data);
int csys_epoll_del(int epfd, int fd);
int csys_epoll_wait(int epfd, csys_event *events, int max, int timeout_ms);

int csys_eventfd(void);
int csys_eventfd_signal(int fd);
int csys_eventfd_drain(int fd);

/* Accepts a connection as non-blocking and close-on-exec; -1 with errno on failure. */
int csys_accept(int listen_fd);
int csys_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid);
/* The peer's pid (SO_PEERCRED), or -1. */
int32_t csys_peer_pid(int fd);

int csys_unix_socket(int nonblocking);
/* Binds and listens on a path; -2 when the path does not fit sockaddr_un. */
int csys_unix_listen(int fd, const char *path, int backlog);
/* Connects to a path; -2 when the path does not fit. */
int csys_unix_connect(int fd, const char *path);
int csys_is_listening_unix_socket(int fd);
int csys_set_nonblocking(int fd, int on);
int csys_set_cloexec(int fd);
/* Names the calling thread (at most 15 bytes are kept), for top -H and the journal. */
void csys_name_current_thread(const char *name);

ssize_t csys_send(int fd, const void *buf, size_t len);
/* Receives without waiting; with peek set the bytes stay queued (MSG_PEEK). */
ssize_t csys_recv(int fd, void *buf, size_t len, int peek);
/* Opens /dev/null read-only, close-on-exec: a descriptor held in reserve for when the process runs out. */
int csys_open_reserve(void);
/* Descriptors this process has open (entries of /proc/self/fd), or -1. */
int csys_count_open_descriptors(void);
/* Sends one datagram to a unix datagram socket path (abstract when it starts with '@'), never blocking. */
int csys_notify(const char *path, const char *message, size_t len);

/* Unblocks every signal: a parent may have handed us a blocked mask. */
int csys_unblock_all_signals(void);
/* Blocks the given signals in the calling thread (and threads it creates later). */
int csys_block_signals(const int *signals, int count);
/* Waits for one of the given (blocked) signals; returns its number or -1 on timeout/interrupt. */
int csys_wait_signal(const int *signals, int count, int timeout_ms);
int csys_ignore_sigpipe(void);

/* Raises the soft open-files limit to the hard limit; returns the new soft limit or -1. */
long csys_raise_fd_limit(void);

/* Pins glibc's mmap threshold (bytes; 0, or -1 when glibc refuses), so large freed buffers go back to the kernel instead of staying resident. */
int csys_pin_mmap_threshold(int bytes);

uint64_t csys_monotonic_usec(void);
uint64_t csys_monotonic_nsec(void);

/* ThreadSanitizer's view of a lock it cannot see (Swift's Mutex on Linux takes its futex in uninstrumented code):
   acquire after taking the lock, release before giving it up, at the lock's address. Without
   ThreadSanitizer they do nothing; FmtCore calls them only in a build with FMTD_TSAN defined. */
void csys_tsan_acquire(const void *address);
void csys_tsan_release(const void *address);

#endif
