#ifndef TEAMSKETCH_CAVAHI_SHIM_H
#define TEAMSKETCH_CAVAHI_SHIM_H

#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-client/publish.h>
#include <avahi-common/error.h>
#include <avahi-common/strlst.h>
#include <avahi-common/address.h>
#include <avahi-common/malloc.h>
#include <avahi-glib/glib-watch.h>

#endif
