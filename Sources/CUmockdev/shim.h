// libumockdev's testbed API (UMockdevTestbed), for the test tool's hotplug host only: never
// linked into gestured itself.
#include <umockdev.h>
