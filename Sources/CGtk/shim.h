#ifndef TEAMSKETCH_CGTK_SHIM_H
#define TEAMSKETCH_CGTK_SHIM_H

#include <gtk/gtk.h>
#include <glib-unix.h>
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <pango/pangocairo.h>
#include <libintl.h>
#include <locale.h>

// Macros and casts Swift cannot import; kept as small static inline helpers.

static inline gulong ts_signal_connect(gpointer instance, const char *signal,
                                       GCallback handler, gpointer data,
                                       GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, 0);
}

static inline GObject *ts_object(gpointer p) { return G_OBJECT(p); }
static inline GtkWidget *ts_widget(gpointer p) { return GTK_WIDGET(p); }
static inline GtkWindow *ts_window(gpointer p) { return GTK_WINDOW(p); }
static inline GtkBox *ts_box(gpointer p) { return GTK_BOX(p); }
static inline GtkButton *ts_button(gpointer p) { return GTK_BUTTON(p); }
static inline GtkLabel *ts_label(gpointer p) { return GTK_LABEL(p); }
static inline GtkEditable *ts_editable(gpointer p) { return GTK_EDITABLE(p); }
static inline GtkDrawingArea *ts_drawing_area(gpointer p) { return GTK_DRAWING_AREA(p); }
static inline GtkGesture *ts_gesture(gpointer p) { return GTK_GESTURE(p); }
static inline GtkGestureSingle *ts_gesture_single(gpointer p) { return GTK_GESTURE_SINGLE(p); }
static inline GtkEventController *ts_controller(gpointer p) { return GTK_EVENT_CONTROLLER(p); }
static inline GtkStack *ts_stack(gpointer p) { return GTK_STACK(p); }
static inline GtkToggleButton *ts_toggle(gpointer p) { return GTK_TOGGLE_BUTTON(p); }
static inline GtkCheckButton *ts_check(gpointer p) { return GTK_CHECK_BUTTON(p); }
static inline GtkMenuButton *ts_menu_button(gpointer p) { return GTK_MENU_BUTTON(p); }
static inline GtkPopover *ts_popover(gpointer p) { return GTK_POPOVER(p); }
static inline GtkGrid *ts_grid(gpointer p) { return GTK_GRID(p); }
static inline GtkFlowBox *ts_flow_box(gpointer p) { return GTK_FLOW_BOX(p); }
static inline GtkScrolledWindow *ts_scrolled(gpointer p) { return GTK_SCROLLED_WINDOW(p); }
static inline GtkSpinButton *ts_spin(gpointer p) { return GTK_SPIN_BUTTON(p); }
static inline GtkSwitch *ts_switch(gpointer p) { return GTK_SWITCH(p); }
static inline GtkListItem *ts_list_item(gpointer p) { return GTK_LIST_ITEM(p); }
static inline GtkStringObject *ts_string_object(gpointer p) { return GTK_STRING_OBJECT(p); }
static inline GtkStringList *ts_string_list(gpointer p) { return GTK_STRING_LIST(p); }
static inline GtkGridView *ts_grid_view(gpointer p) { return GTK_GRID_VIEW(p); }
static inline GtkTextView *ts_text_view(gpointer p) { return GTK_TEXT_VIEW(p); }
static inline GtkRange *ts_range(gpointer p) { return GTK_RANGE(p); }
static inline GtkScale *ts_scale(gpointer p) { return GTK_SCALE(p); }
static inline GListModel *ts_list_model(gpointer p) { return G_LIST_MODEL(p); }
static inline GtkSelectionModel *ts_selection_model(gpointer p) { return GTK_SELECTION_MODEL(p); }
static inline GtkListItemFactory *ts_list_item_factory(gpointer p) { return GTK_LIST_ITEM_FACTORY(p); }
static inline GtkDropDown *ts_drop_down(gpointer p) { return GTK_DROP_DOWN(p); }
static inline GtkOverlay *ts_overlay(gpointer p) { return GTK_OVERLAY(p); }
static inline GtkImage *ts_image(gpointer p) { return GTK_IMAGE(p); }
static inline GtkPicture *ts_picture(gpointer p) { return GTK_PICTURE(p); }
static inline GtkFileChooser *ts_file_chooser(gpointer p) { return GTK_FILE_CHOOSER(p); }
static inline GtkDialog *ts_dialog(gpointer p) { return GTK_DIALOG(p); }
static inline GtkNative *ts_native(gpointer p) { return GTK_NATIVE(p); }
static inline GtkNativeDialog *ts_native_dialog(gpointer p) { return GTK_NATIVE_DIALOG(p); }
static inline GtkApplication *ts_application(gpointer p) { return GTK_APPLICATION(p); }
static inline GApplication *ts_gapplication(gpointer p) { return G_APPLICATION(p); }
static inline GtkStyleProvider *ts_style_provider(gpointer p) { return GTK_STYLE_PROVIDER(p); }
static inline GtkAccessible *ts_accessible(gpointer p) { return GTK_ACCESSIBLE(p); }
static inline GtkEntry *ts_entry(gpointer p) { return GTK_ENTRY(p); }
static inline GtkExpander *ts_expander(gpointer p) { return GTK_EXPANDER(p); }
static inline GtkProgressBar *ts_progress_bar(gpointer p) { return GTK_PROGRESS_BAR(p); }

static inline const char *ts_gettext(const char *msgid) { return gettext(msgid); }
static inline const char *ts_ngettext(const char *one, const char *many, unsigned long n) { return ngettext(one, many, n); }

// libdispatch's main-queue hooks for foreign run loops (CoreFoundation uses them).
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

#endif
