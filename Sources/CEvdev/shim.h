#include <libevdev/libevdev.h>
#include <linux/input.h>
// uinput (kernel devices made from a description): the test support's injector uses it.
#include <libevdev/libevdev-uinput.h>
