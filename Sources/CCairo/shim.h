#ifndef TEAMSKETCH_CCAIRO_SHIM_H
#define TEAMSKETCH_CCAIRO_SHIM_H

// Cairo alone, without GTK: the render target (thumbnails, PNG/PDF/SVG
// export) must run where no display library is installed, such as the server.
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>

#endif
