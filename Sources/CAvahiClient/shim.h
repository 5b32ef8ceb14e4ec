#ifndef TEAMSKETCH_CAVAHICLIENT_SHIM_H
#define TEAMSKETCH_CAVAHICLIENT_SHIM_H

/* avahi-client with its own threaded poll, without GLib: for the school
   server, which has no GLib main loop and should not link GLib for one
   announcement. The desktop uses CAvahi (the GLib poll) instead; no target
   imports both, so their declarations never meet. */
#include <avahi-client/client.h>
#include <avahi-client/publish.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/strlst.h>
#include <avahi-common/thread-watch.h>
#include <avahi-common/timeval.h>

#endif
